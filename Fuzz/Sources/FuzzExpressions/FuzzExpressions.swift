import FuzzSupport

/// libFuzzer's entry point: one input, checked by ExpressionHarness; an oracle failure traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ExpressionHarness.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
