/// Linux ioctl request numbers computed in Swift, as the kernel's `_IOC` macro does, for the requests whose C
/// macros Swift cannot import (they take the buffer size as an argument, or use `sizeof`).
///
/// `_IOC(dir, type, nr, size) = dir << DIRSHIFT | size << SIZESHIFT | type << TYPESHIFT | nr`, with an 8-bit
/// `nr` at bit 0 and an 8-bit `type` at bit 8. The size field and the direction values depend on the
/// architecture: include/uapi/asm-generic/ioctl.h (x86, arm, arm64, riscv, s390: 14-bit size, read = 2,
/// write = 1) and arch/powerpc/include/uapi/asm/ioctl.h (13-bit size, read = 2, write = 4).
enum IOControl {
    /// The direction of the data transfer, seen from user space.
    enum Direction {
        case none
        case read
        case write

        var bits: UInt {
            #if arch(powerpc) || arch(powerpc64) || arch(powerpc64le)
                switch self {
                case .none: 1
                case .read: 2
                case .write: 4
                }
            #else
                switch self {
                case .none: 0
                case .read: 2
                case .write: 1
                }
            #endif
        }
    }

    #if arch(powerpc) || arch(powerpc64) || arch(powerpc64le)
        static let sizeBits: UInt = 13
    #else
        static let sizeBits: UInt = 14
    #endif
    static let sizeShift: UInt = 16
    static let directionShift: UInt = sizeShift + sizeBits

    /// `_IOC(direction, type, number, size)`. A size that does not fit the size field is a programming error.
    static func request(_ direction: Direction, type: UInt8, number: UInt8, size: Int) -> UInt {
        precondition(size >= 0 && UInt(size) < (1 << sizeBits), "ioctl size \(size) does not fit \(sizeBits) bits")
        return direction.bits << directionShift | UInt(size) << sizeShift | UInt(type) << 8 | UInt(number)
    }

    /// `EVIOCGKEY(len)`: read the device's key state, a bitmap of `byteCount` bytes (linux/input.h).
    static func evdevGetKeyState(byteCount: Int) -> UInt {
        request(.read, type: UInt8(ascii: "E"), number: 0x18, size: byteCount)
    }

    /// `EVIOCSCLOCKID`: `_IOW('E', 0xa0, int)`, choose the clock of the event timestamps (linux/input.h).
    static let evdevSetClockID = request(.write, type: UInt8(ascii: "E"), number: 0xa0, size: MemoryLayout<Int32>.size)
}
