// expect-runtime: [parameter-pack-type]
// The runtime check must refuse a generic type with a parameter pack (Swift 5.9 runtime: macOS 14,
// iOS 17).
struct Columns<each Value> {
    var values: (repeat each Value)
}
