@testable import ForkcastCore
import Foundation
import PropertyBased
import Testing

@Suite("Usual foods: the plate's first offers")
struct UsualFoodsTests {
    let day: TimeInterval = 86_400
    let start = Date(timeIntervalSince1970: 1_795_392_000)

    @Test func halfAreTheMostRecentTheRestTheMostFrequent() {
        let ids = (0..<8).map { _ in UUID() }
        // ids[0] logged 20 times long ago; ids[1…7] once each, ids[7] most recently.
        var uses = [UsualFoods.Use(foodID: ids[0], count: 20, last: start)]
        uses += (1..<8).map { UsualFoods.Use(foodID: ids[$0], count: $0 == 1 ? 5 : 1, last: start.addingTimeInterval(Double($0) * day)) }
        let ranked = UsualFoods.rank(uses, limit: 6)
        #expect(Array(ranked.prefix(3)) == [ids[7], ids[6], ids[5]], "the three logged last")
        #expect(Array(ranked.dropFirst(3)) == [ids[0], ids[1], ids[4]], "then by how often, newest first among equals")
    }

    @Test func rankingIsDistinctBoundedAndMadeOfWhatWasLogged() async {
        let use = zip(Gen.int(in: 1...50), Gen.int(in: 0...89)).map { count, daysAgo in
            UsualFoods.Use(foodID: UUID(), count: count, last: Date(timeIntervalSince1970: 1_795_392_000 - Double(daysAgo) * 86_400))
        }
        await propertyCheck(count: 200, input: use.array(of: 0...20), Gen.int(in: 0...10)) { uses, limit in
            let ranked = UsualFoods.rank(uses, limit: limit)
            #expect(ranked.count == min(limit, uses.count))
            #expect(Set(ranked).count == ranked.count, "no food twice")
            #expect(Set(ranked).isSubset(of: Set(uses.map(\.foodID))))
            #expect(UsualFoods.rank(uses.reversed(), limit: limit) == ranked, "the order rows come in does not matter")
        }
    }
}
