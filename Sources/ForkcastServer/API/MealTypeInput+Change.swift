import ForkcastApp
import ForkcastContract

extension MealTypeInput {
    /// What the API and sync send, as the change ``SaveMealType`` makes.
    var change: SaveMealType.Change {
        SaveMealType.Change(name: displayName, window: window.map { $0.map { (start: $0.start, end: $0.end) } }, position: position, hidden: hidden)
    }
}
