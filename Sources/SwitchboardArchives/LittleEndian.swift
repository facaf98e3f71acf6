/// Little-endian numbers at offsets in a header's bytes, as zip stores them.
struct LittleEndian {
    let bytes: [UInt8]
    var base = 0

    func u16(_ offset: Int) -> UInt16 {
        UInt16(bytes[base + offset]) | UInt16(bytes[base + offset + 1]) << 8
    }

    func u32(_ offset: Int) -> UInt32 {
        UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16
    }

    func u64(_ offset: Int) -> UInt64 {
        UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32
    }
}
