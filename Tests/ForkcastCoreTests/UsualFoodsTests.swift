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

    @Test func theMealTypesOwnHistoryComesFirst() {
        // Greek yogurt at 20 of 21 breakfasts, yesterday too; cheddar and feta logged more
        // often (and later) at lunch and dinner. Breakfast leads with yogurt; lunch with cheddar.
        let yogurt = UUID(), oats = UUID(), berries = UUID(), cheddar = UUID(), feta = UUID(), rice = UUID(), newJam = UUID()
        let yesterday = start.addingTimeInterval(20 * day)
        let uses = [
            UsualFoods.Use(foodID: yogurt, count: 20, last: yesterday, mealType: "breakfast"),
            UsualFoods.Use(foodID: oats, count: 6, last: yesterday.addingTimeInterval(-3 * day), mealType: "breakfast"),
            UsualFoods.Use(foodID: berries, count: 4, last: yesterday.addingTimeInterval(-9 * day), mealType: "breakfast"),
            UsualFoods.Use(foodID: cheddar, count: 30, last: yesterday.addingTimeInterval(0.5 * day), mealType: "lunch"),
            UsualFoods.Use(foodID: feta, count: 25, last: yesterday.addingTimeInterval(0.6 * day), mealType: "dinner"),
            UsualFoods.Use(foodID: rice, count: 21, last: yesterday.addingTimeInterval(0.7 * day), mealType: "dinner"),
            UsualFoods.Use(foodID: cheddar, count: 1, last: start, mealType: "breakfast"),
        ]
        let breakfast = UsualFoods.rank(uses, for: "breakfast", limit: 6)
        #expect(Array(breakfast.prefix(4)) == [yogurt, oats, berries, cheddar], "breakfast's own, most often first")
        #expect(breakfast.count == 6 && Set(breakfast).count == 6)
        #expect(UsualFoods.rank(uses, for: "lunch", limit: 6).first == cheddar)
        #expect(UsualFoods.rank(uses, for: "snack", limit: 3) == UsualFoods.rank(uses.map {
            UsualFoods.Use(foodID: $0.foodID, count: $0.count, last: $0.last)
        }.reduce(into: [UUID: UsualFoods.Use]()) { all, use in
            let before = all[use.foodID]
            all[use.foodID] = UsualFoods.Use(foodID: use.foodID, count: use.count + (before?.count ?? 0), last: max(use.last, before?.last ?? .distantPast))
        }.values.map { $0 }, limit: 3), "a meal type with no history falls back to every meal's")
        // A food first logged at this meal yesterday is offered even when six others are more frequent.
        let many = (0..<6).map { _ in UsualFoods.Use(foodID: UUID(), count: 10, last: start, mealType: "breakfast") }
            + [UsualFoods.Use(foodID: newJam, count: 1, last: yesterday, mealType: "breakfast")]
        #expect(UsualFoods.rank(many, for: "breakfast", limit: 6).contains(newJam))
    }

    @Test func perMealTypeRankingIsDistinctAndBounded() async {
        let use = zip(Gen.int(in: 1...50), Gen.int(in: 0...89)).map { count, daysAgo in
            UsualFoods.Use(foodID: UUID(), count: count, last: Date(timeIntervalSince1970: 1_795_392_000 - Double(daysAgo) * 86_400),
                           mealType: ["breakfast", "lunch", "dinner"][daysAgo % 3])
        }
        await propertyCheck(count: 200, input: use.array(of: 0...20), Gen.int(in: 0...10)) { uses, limit in
            let ranked = UsualFoods.rank(uses, for: "breakfast", limit: limit)
            #expect(ranked.count == min(limit, Set(uses.map(\.foodID)).count))
            #expect(Set(ranked).count == ranked.count, "no food twice")
            let breakfast = Set(uses.filter { $0.mealType == "breakfast" }.map(\.foodID))
            #expect(ranked.prefix(min(limit, breakfast.count)).allSatisfy(breakfast.contains), "the meal type's own foods come first")
        }
    }
}
