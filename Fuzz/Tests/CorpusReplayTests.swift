import FuzzHarness
import Foundation
import XCTest

/// Replays every committed fuzz input (seed corpus and the regressions of past findings,
/// `Fuzz/Corpus/TARGET/`) through its target's checks, in the ordinary test run.
final class CorpusReplayTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus")

    func testEveryTargetHasSeeds() throws {
        for target in FuzzTarget.allCases {
            XCTAssertFalse(try inputs(of: target).isEmpty, "no seed corpus for \(target.rawValue)")
        }
    }

    func testCorpusPassesEveryTarget() throws {
        for target in FuzzTarget.allCases {
            for file in try inputs(of: target) {
                let bytes = try Data(contentsOf: file)
                do {
                    try bytes.withUnsafeBytes { try target.run($0) }
                } catch {
                    XCTFail("\(target.rawValue)/\(file.lastPathComponent): \(error)")
                }
            }
        }
    }

    func inputs(of target: FuzzTarget) throws -> [URL] {
        let folder = Self.corpus.appendingPathComponent(target.rawValue)
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
