import Foundation
public import ScreenplayContract

/// What every harness shares: how an oracle fails, the versions to try, small JSON helpers.
public enum Oracle {
    /// Stops the process so libFuzzer records the input as a crash. The message names the target
    /// and what was violated; libFuzzer prints it above the stack trace.
    public static func fail(_ target: String, _ message: String) -> Never {
        fatalError("[\(target)] oracle violated: \(message)")
    }

    /// The planted bug fired: not a finding, the proof that the target can find one.
    public static func planted(_ target: String, _ message: String) -> Never {
        fatalError("[\(target)] PLANTED BUG reached: \(message)")
    }

    /// Every API version this build of the contract speaks, oldest first.
    public static let versions: [APIVersion] = (APIVersion.supported.lowerBound.rawValue...APIVersion.supported.upperBound.rawValue).map {
        APIVersion($0)
    }

    /// Deterministic bytes for a value at `version` (sorted keys, like the server).
    public static func encode<Value: Encodable>(_ value: Value, at version: APIVersion, target: String) -> Data {
        do {
            return try ScreenplayEncoder(apiVersion: version).encode(value)
        } catch {
            fail(target, "encoding a decoded value failed at \(version): \(error)")
        }
    }

    /// Whether two JSON values are the same JSON: numbers compare by value as `Double`, whichever
    /// case holds them (a `.number` past 2^53 with no fraction is printed in a form that reads
    /// back as an `.integer` of the printed digits; JSON promises no more precision than that).
    public static func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { sameJSON(value, $0) } ?? false }
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
        default:
            if let x = a.numberValue, let y = b.numberValue { return x == y }
            return a == b
        }
    }

    /// A short, printable excerpt of bytes for oracle messages.
    public static func excerpt(_ data: Data, limit: Int = 300) -> String {
        let text = String(decoding: data.prefix(limit), as: UTF8.self)
        return data.count > limit ? text + "…(\(data.count) bytes)" : text
    }
}

/// Runs an async operation to completion from the synchronous fuzz callback.
final class Blocking<Value: Sendable>: @unchecked Sendable {
    private var value: Value?
    private let done = DispatchSemaphore(value: 0)

    static func run(_ operation: @escaping @Sendable () async -> Value) -> Value {
        let box = Blocking<Value>()
        Task.detached {
            box.value = await operation()
            box.done.signal()
        }
        box.done.wait()
        return box.value!
    }
}
