@testable import Evdev
import InputCodes
import Testing

/// The request numbers are checked against constants worked out by hand from the kernel's `_IOC` macro
/// (include/uapi/asm-generic/ioctl.h): `dir << 30 | size << 16 | type << 8 | nr`, `_IOC_READ` = 2,
/// `_IOC_WRITE` = 1, `'E'` = 0x45.
@Suite("ioctl request numbers")
struct IOControlTests {
    #if arch(x86_64) || arch(arm64) || arch(arm) || arch(riscv64) || arch(s390x) || arch(i386)
        @Test(
            "EVIOCGKEY(len) is _IOC(_IOC_READ, 'E', 0x18, len)",
            arguments: [
                // 2 << 30 = 0x8000_0000; 96 << 16 = 0x0060_0000; 0x45 << 8 = 0x4500; nr 0x18.
                (96, UInt(0x8060_4518)),
                // 1 << 16 = 0x0001_0000.
                (1, UInt(0x8001_4518)),
                // 0x3fff is the largest 14-bit size: 0x3fff << 16 = 0x3fff_0000.
                (0x3fff, UInt(0xbfff_4518)),
                (0, UInt(0x8000_4518)),
            ])
        func keyStateRequest(length: Int, expected: UInt) {
            let actual = IOControl.evdevGetKeyState(byteCount: length)
            #expect(
                actual == expected,
                "EVIOCGKEY(\(length)): expected 0x\(String(expected, radix: 16)), got 0x\(String(actual, radix: 16))")
        }

        @Test("EVIOCSCLOCKID is _IOW('E', 0xa0, int) = 0x400445a0")
        func setClockRequest() {
            // 1 << 30 = 0x4000_0000; sizeof(int) 4 << 16 = 0x0004_0000; 0x45 << 8; nr 0xa0.
            let actual = IOControl.evdevSetClockID
            #expect(actual == 0x4004_45a0, "got 0x\(String(actual, radix: 16))")
        }

        @Test("_IOR('E', 0x01, int) is EVIOCGVERSION = 0x80044501, _IOC_NONE has no direction bits")
        func directions() {
            #expect(IOControl.request(.read, type: UInt8(ascii: "E"), number: 0x01, size: 4) == 0x8004_4501)
            // UI_DEV_CREATE = _IO('U', 1) = 0x5501 (linux/uinput.h).
            #expect(IOControl.request(.none, type: UInt8(ascii: "U"), number: 0x01, size: 0) == 0x5501)
        }
    #endif

    @Test("the key-state buffer is KEY_CNT bits: 96 bytes in whole words")
    func keyStateBufferSize() {
        // KEY_MAX 0x2ff: 768 bits, 12 words of 64 bits (24 of 32): 96 bytes either way.
        let bytes = EvdevReader.keyStateWordCount * MemoryLayout<UInt>.size
        #expect(bytes == 96, "expected 96 bytes, got \(bytes)")
    }

    @Test("a key bitmap decodes by word and bit: KEY_ESC bit 1, KEY_A bit 30, BTN_LEFT bit 0x110 (word 4, bit 16)")
    func keyBitmap() {
        var words = [UInt](repeating: 0, count: EvdevReader.keyStateWordCount)
        for code in [EventCode.keyEsc, .keyA, .keyLeftMeta, .btnLeft, .keyPreviousSong] {
            words[Int(code.code) / UInt.bitWidth] |= 1 << UInt(Int(code.code) % UInt.bitWidth)
        }
        let held = EvdevReader.keys(inBitmap: words)
        let expected: [EventCode] = [.keyEsc, .keyA, .keyLeftMeta, .keyPreviousSong, .btnLeft]
        #expect(held == expected, "expected \(expected), got \(held)")
        #expect(EvdevReader.keys(inBitmap: [UInt](repeating: 0, count: 12)).isEmpty)
        if UInt.bitWidth == 64 { #expect(EvdevReader.keys(inBitmap: [0, 0, 0, 0, 1 << 16]) == [.btnLeft]) }
    }
}
