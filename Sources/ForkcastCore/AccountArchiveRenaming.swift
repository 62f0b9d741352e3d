import Foundation

/// Giving an archive's records new ids: what an import does with ids this server already holds and
/// with references to records the archive does not hold (docs/export-format.md, "What an import checks").
extension AccountArchive {
    /// Foods and meals that diary entries name but the archive does not hold: ones deleted since
    /// they were logged (an entry keeps its values, not its food), or another account's, named by
    /// a crafted file. Either way none of them can be the importing account's.
    public var outsideReferences: Set<UUID> {
        let foodIDs = Set(foods.map(\.id)), mealIDs = Set(meals.map(\.id))
        var outside = Set<UUID>()
        for entry in diary {
            switch entry.kind {
            case .food(let foodId, _, _) where !foodIDs.contains(foodId): outside.insert(foodId)
            case .meal(let mealId, _) where !mealIDs.contains(mealId): outside.insert(mealId)
            default: break
            }
        }
        return outside
    }

    /// The archive with every id in `map` replaced, wherever it stands: a record's own id, a
    /// reference to it (ingredients, planned meals, entries' foods, meals and photos), and the
    /// meal-type tokens that are a custom type's id. The derived occasions are dropped (an import
    /// derives them again).
    public func renaming(_ map: [UUID: UUID]) -> AccountArchive {
        guard !map.isEmpty else { return self }
        func new(_ id: UUID) -> UUID { map[id] ?? id }
        let tokens = Dictionary(map.map { ($0.key.uuidString.lowercased(), $0.value.uuidString.lowercased()) }, uniquingKeysWith: { a, _ in a })
        func token(_ t: String) -> String { tokens[t.lowercased()] ?? t }
        var copy = self
        copy.mealTypes = mealTypes.map {
            MealType(id: new($0.id), key: $0.key, name: $0.name, window: $0.window, position: $0.position, hidden: $0.hidden,
                     createdAt: $0.createdAt, updatedAt: $0.updatedAt)
        }
        copy.foods = foods.map {
            Food(id: new($0.id), name: $0.name, brand: $0.brand, barcode: $0.barcode, basis: $0.basis, per100: $0.per100, serving: $0.serving,
                 portion: $0.portion, price: $0.price, icon: $0.icon, source: $0.source, createdAt: $0.createdAt, updatedAt: $0.updatedAt)
        }
        // Every field of the meal kept (its recipe too), with its own id and its foods' new ones.
        copy.meals = meals.map {
            Meal(id: new($0.id), description: $0.description, primaryProtein: $0.primaryProtein, primaryCarb: $0.primaryCarb,
                 otherComponents: $0.otherComponents, createdAt: $0.createdAt, updatedAt: $0.updatedAt, servings: $0.servings,
                 ingredients: $0.ingredients.map { var i = $0; i.foodId = new(i.foodId); return i },
                 manualNutrition: $0.manualNutrition, recipe: $0.recipe)
        }
        copy.plan = plan.map { Assignment(id: new($0.id), mealId: new($0.mealId), date: $0.date, createdAt: $0.createdAt, mealType: $0.mealType.map(token), servings: $0.servings,
                                          seriesId: $0.seriesId.map(new)) }
        copy.diary = diary.map { entry in
            let kind: DiaryEntry.Kind = switch entry.kind {
            case let .food(foodId, quantity, unit): .food(foodId: new(foodId), quantity: quantity, unit: unit)
            case let .meal(mealId, servings): .meal(mealId: new(mealId), servings: servings)
            case let other: other
            }
            return DiaryEntry(id: new(entry.id), loggedAt: entry.loggedAt, date: entry.date, mealType: token(entry.mealType), note: entry.note,
                              kind: kind, name: entry.name, nutrients: entry.nutrients, cost: entry.cost, photoId: entry.photoId.map(new))
        }
        copy.photos = photos.map { var p = $0; p.id = new(p.id); return p }
        copy.weights = weights.map { var w = $0; w.id = new(w.id); return w }
        copy.shoppingLists = shoppingLists.map { record in
            var list = record.list
            list = ShoppingList(id: new(list.id), name: list.name, from: list.from, to: list.to, createdAt: list.createdAt, updatedAt: list.updatedAt)
            return ShoppingListRecord(list: list, items: record.items.map { item in
                var copy = ShoppingItem(id: new(item.id), listId: list.id, name: item.name, foodId: item.foodId.map(new), quantity: item.quantity,
                                        unit: item.unit, category: item.category, categoryChosen: item.categoryChosen,
                                        estimatedPrice: item.estimatedPrice, checked: item.checked, source: item.source, meals: item.meals,
                                        updatedAt: item.updatedAt)
                copy.listId = list.id
                return copy
            })
        }
        copy.pantry = pantry.map {
            PantryItem(id: new($0.id), foodId: new($0.foodId), amount: $0.amount, unit: $0.unit, location: $0.location,
                       bestBefore: $0.bestBefore, opened: $0.opened, createdAt: $0.createdAt, updatedAt: $0.updatedAt)
        }
        copy.recipePhotos = recipePhotos.map { var r = $0; r.mealId = new(r.mealId); return r }  // its file keeps its name
        copy.occasions = []
        return copy
    }
}
