package import System

/// Why the mutation runner could not do its part: a catalogue that does not read, a tree it could not copy, a mutant
/// it could not build, a suite run that did not leave results.
package typealias MutationError = ModuleError<MutationErrorCode>

/// The kinds of `MutationError`.
package enum MutationErrorCode: String, Sendable {
    /// A fault file's header or patch is malformed, or names what the project does not have.
    case catalogue
    /// The copy of the source tree could not be made.
    case tree
    /// Building the unchanged tree failed: no mutant could mean anything.
    case build
    /// A suite run left no results, or the suite does not pass the unchanged computer.
    case suite
}
