import XCTest
@testable import PubSubClient

/// `SequentialKeyTable` against a dictionary doing the same operations: keys mostly in order,
/// some out of order or wrapped, removals in and out of order, entries that stay for long.
final class SequentialKeyTableTests: XCTestCase {
    func testEveryOperationAgreesWithADictionary() {
        var generator = SplitMix64(seed: 0x5E0_7AB1E)
        for round in 0..<16 {
            var table = SequentialKeyTable<Int>()
            var model: [UInt64: Int] = [:]
            var nextKey: UInt64 = round % 2 == 0 ? 1 : UInt64.max - 50
            for step in 0..<2_000 {
                switch generator.next() % 10 {
                case 0...4:
                    // Mostly the next key; now and then one out of order.
                    var key = nextKey
                    if generator.next() % 20 == 0 { key = generator.next() % 10_000 }
                    if model[key] == nil {
                        table.insert(step, for: key)
                        model[key] = step
                    }
                    if key == nextKey { nextKey &+= 1 }
                case 5...7:
                    // Mostly the oldest few, sometimes any key.
                    let candidates = model.keys.sorted()
                    guard !candidates.isEmpty else { continue }
                    let pick =
                        generator.next() % 4 == 0
                        ? candidates[Int(generator.next() % UInt64(candidates.count))]
                        : candidates[Int(generator.next() % UInt64(min(3, candidates.count)))]
                    XCTAssertEqual(table.removeValue(for: pick), model.removeValue(forKey: pick))
                case 8:
                    let key = generator.next() % 2 == 0 ? nextKey &- generator.next() % 100 : generator.next()
                    XCTAssertEqual(table.removeValue(for: key), model.removeValue(forKey: key), "key \(key)")
                default:
                    let key = nextKey &- generator.next() % 200
                    XCTAssertEqual(table.value(for: key), model[key], "key \(key)")
                }
                XCTAssertEqual(table.count, model.count)
            }
            let entries = table.entries
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) }), model)
            table.removeAll()
            XCTAssertTrue(table.isEmpty)
            XCTAssertNil(table.value(for: nextKey &- 1))
        }
    }

    /// One entry that is never removed must not keep every later key's slot.
    func testALongLivedEntryDoesNotHoldTheWindowOpen() {
        var table = SequentialKeyTable<Int>()
        table.insert(0, for: 1)
        for key in UInt64(2)...100_000 {
            table.insert(Int(key), for: key)
            XCTAssertEqual(table.removeValue(for: key), Int(key))
        }
        XCTAssertEqual(table.count, 1)
        XCTAssertEqual(table.value(for: 1), 0)
        XCTAssertLessThan(table.slotCapacityInUse, 200, "the window follows the live entries")
        XCTAssertEqual(table.removeValue(for: 1), 0)
        XCTAssertTrue(table.isEmpty)
    }

    /// Answers out of order within a window of outstanding calls, as a pipeline makes them.
    func testAPipelineWithinItsWindowStaysInTheSlots() {
        var table = SequentialKeyTable<Int>()
        var next: UInt64 = 1
        var outstanding: [UInt64] = []
        var generator = SplitMix64(seed: 9)
        for _ in 0..<20_000 {
            while outstanding.count < 100 {
                table.insert(Int(next), for: next)
                outstanding.append(next)
                next += 1
            }
            let index = Int(generator.next() % 8)
            let key = outstanding.remove(at: index)
            XCTAssertEqual(table.removeValue(for: key), Int(key))
        }
        XCTAssertEqual(table.count, outstanding.count)
        XCTAssertLessThan(table.slotCapacityInUse, 400)
    }
}
