import FuzzHarness

// libFuzzer entry for the `msgpack` target (built by Scripts/fuzz.sh with -sanitize=fuzzer,address).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.msgpack.fuzzerEntry(data, size)
}
