/// glibc keeps the heap pages a large piece of work freed (the catalogue's index being built, an
/// account's import) in the process unless asked to hand them back: three imports of 150,000
/// entries left the server at 300 MB ten minutes later.
enum ProcessMemory {
    static func handBackFreed() {
        #if os(Linux)
        _ = mallocTrim(0)
        #endif
    }
}

#if os(Linux)
/// glibc's `malloc_trim` (declared in malloc.h, which Swift's Glibc module leaves out).
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
#endif
