import ScreenplayCrypto
import Testing

/// The digests against published vectors (FIPS 180-4's examples, RFC 4231, RFC 7914) and against
/// Python's `hashlib` (an independent implementation, for inputs the RFCs do not cover).
@Suite("Crypto: SHA-256, HMAC, PBKDF2 and scrypt give the published answers")
struct CryptoTests {
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("SHA-256 of FIPS 180-4's examples: empty, one block, two blocks, a million bytes")
    func sha256Vectors() {
        #expect(Self.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256.hash(Self.bytes("abc"))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.hex(SHA256.hash(Self.bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var million = SHA256()
        for _ in 0..<1_000 { million.update([UInt8](repeating: UInt8(ascii: "a"), count: 1_000)) }
        #expect(Self.hex(million.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("fed in pieces of any size, or as a sequence with no contiguous storage, the digest is the same")
    func sha256Pieces() {
        let message = (0..<3).flatMap { _ in (0...255).map(UInt8.init) }  // 768 bytes
        let expected = "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363"  // hashlib
        #expect(Self.hex(SHA256.hash(message)) == expected)
        for piece in [1, 3, 55, 56, 63, 64, 65, 127, 500] {
            var digest = SHA256()
            var start = 0
            while start < message.count {
                digest.update(message[start..<min(start + piece, message.count)])
                start += piece
            }
            #expect(Self.hex(digest.finalize()) == expected, "pieces of \(piece)")
        }
        #expect(Self.hex(SHA256.hash(message.lazy.map { $0 })) == expected)
        // Lengths around the padding's boundary (55, 56, 64 bytes) each pad differently.
        #expect(Self.hex(SHA256.hash([UInt8](repeating: 0x61, count: 55))) != Self.hex(SHA256.hash([UInt8](repeating: 0x61, count: 56))))
    }

    @Test("HMAC-SHA256: RFC 4231's cases, a key longer than a block included")
    func hmacVectors() {
        #expect(
            Self.hex(HMACSHA256.authenticationCode(for: Self.bytes("Hi There"), key: [UInt8](repeating: 0x0b, count: 20)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            Self.hex(HMACSHA256.authenticationCode(for: Self.bytes("what do ya want for nothing?"), key: Self.bytes("Jefe")))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            Self.hex(
                HMACSHA256.authenticationCode(
                    for: Self.bytes("Test Using Larger Than Block-Size Key - Hash Key First"), key: [UInt8](repeating: 0xaa, count: 131)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        // One keyed value signs many messages, each as if keyed afresh.
        let signer = HMACSHA256(key: Self.bytes("Jefe"))
        #expect(signer.authenticationCode(for: Self.bytes("a")) == HMACSHA256.authenticationCode(for: Self.bytes("a"), key: Self.bytes("Jefe")))
        #expect(signer.authenticationCode(for: Self.bytes("a")) != signer.authenticationCode(for: Self.bytes("b")))
    }

    @Test("PBKDF2-HMAC-SHA256: RFC 7914's one-iteration vector and 4 096 iterations (hashlib)")
    func pbkdf2Vectors() {
        #expect(
            Self.hex(PBKDF2.deriveKey(password: Self.bytes("passwd"), salt: Self.bytes("salt"), iterations: 1, length: 64))
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
        #expect(
            Self.hex(PBKDF2.deriveKey(password: Self.bytes("Password"), salt: Self.bytes("NaCl"), iterations: 4_096, length: 40))
                == "438b6f1df76520b1c9989ddf976545b40f1ab4d9da723a81aa5083108b0da61fe1a2be306bc4e962")
    }

    @Test("scrypt: RFC 7914's vectors, N = 16 and N = 1024 with 16 lanes")
    func scryptVectors() throws {
        #expect(
            Self.hex(try Scrypt.deriveKey(password: [], salt: [], cost: 16, blockSize: 1, parallelism: 1, length: 64))
                == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
                + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906")
        #expect(
            Self.hex(try Scrypt.deriveKey(password: Self.bytes("password"), salt: Self.bytes("NaCl"), cost: 1_024, blockSize: 8, parallelism: 16, length: 64))
                == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
                + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
    }

    @Test("scrypt refuses parameters it cannot run with, naming the parameter")
    func scryptParameters() {
        for (cost, blockSize, parallelism, length, named) in [
            (0, 8, 1, 32, "cost"), (1, 8, 1, 32, "cost"), (1_000, 8, 1, 32, "power of two"), (16, 0, 1, 32, "block size"),
            (16, 8, 0, 32, "parallelism"), (16, 8, 1, 0, "length"), (1 << 40, 1, 1, 32, "too large"),
        ] {
            #expect(throws: Scrypt.InvalidParameters.self) {
                try Scrypt.deriveKey(password: [], salt: [], cost: cost, blockSize: blockSize, parallelism: parallelism, length: length)
            }
            do {
                _ = try Scrypt.deriveKey(password: [], salt: [], cost: cost, blockSize: blockSize, parallelism: parallelism, length: length)
            } catch {
                #expect(error.description.contains(named), "\(error.description)")
            }
        }
    }

    @Test("constant-time equality: equal, one byte apart at either end, different lengths")
    func constantTimeEquality() {
        let a: [UInt8] = [1, 2, 3, 4]
        #expect(ConstantTime.equal(a, [1, 2, 3, 4]))
        #expect(!ConstantTime.equal(a, [0, 2, 3, 4]))
        #expect(!ConstantTime.equal(a, [1, 2, 3, 5]))
        #expect(!ConstantTime.equal(a, [1, 2, 3]))
        #expect(ConstantTime.equal([UInt8](), []))
    }
}
