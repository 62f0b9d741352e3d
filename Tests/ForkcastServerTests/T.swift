import Testing
import VaporTesting
@Test func t2() { #expect(true) }
