import FuzzHarness

// libFuzzer entry for the `json` target (built by Scripts/fuzz.sh with -sanitize=fuzzer,address).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.json.fuzzerEntry(data, size)
}
