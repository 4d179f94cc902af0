import FuzzSupport

/// libFuzzer's entry point: one input, checked by ScreenDecodingHarness; an oracle failure traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ScreenDecodingHarness.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
