import GestureTestSupport
import Glibc
import Testing

@testable import GestureTrace

/// `TraceReader.directoryEntries` (which finds a recording's `.desc` sibling) reads each entry's
/// name in place: `readdir` packs its records by name length, so a record at the end of its
/// buffer has far fewer than `d_name`'s 256 bytes behind it. Copying the whole array reads past
/// the buffer (a 256-byte `memcpy` that faults when a thread heap's end follows).
@Suite("Directory entries are read no further than their name")
struct DirectoryEntryTests {
    /// A record whose name ends `slack` bytes before an inaccessible page: reading the name must
    /// not touch that page (a copy of the whole `d_name` faults here for every `slack`).
    @Test(arguments: [0, 1, 7, 64])
    func nameAtTheEndOfMappedMemory(slack: Int) throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapped = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        try #require(mapped != MAP_FAILED)
        let base = try #require(mapped)
        defer { munmap(base, 2 * page) }
        try #require(mprotect(base + page, page, PROT_NONE) == 0)

        let name = Array("session-2.desc".utf8CString)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        // The record starts so that its name's NUL is the last byte before `slack` spare bytes.
        let start = page - slack - name.count - nameOffset
        let record = base + start
        record.initializeMemory(as: UInt8.self, repeating: 0, count: page - start)
        name.withUnsafeBytes { (record + nameOffset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }

        let read = TraceReader.entryName(record.assumingMemoryBound(to: dirent.self))
        #expect(read == "session-2.desc")
    }

    /// The listing itself: names as written, without "." and "..", lengths up to NAME_MAX.
    @Test func listsTheNamesOfAFolder() throws {
        var template = Array("/tmp/gestures-dirent-XXXXXX".utf8CString)
        let folder = String(cString: try #require(mkdtemp(&template)))
        let names = ["a", "rec.evemu", "rec.desc", String(repeating: "n", count: Int(NAME_MAX))]
        for n in names { close(open(folder + "/" + n, O_CREAT | O_WRONLY, 0o644)) }
        defer {
            for n in names { unlink(folder + "/" + n) }
            rmdir(folder)
        }
        #expect(TraceReader.directoryEntries(folder)?.sorted() == names.sorted())
    }
}
