import Vapor

extension Application {
    /// What `configure` puts in the application's storage for the application's lifetime (its
    /// composition root). Reading one before `configure` ran is a programmer's error.
    func configured<Key: StorageKey>(_ key: Key.Type, _ name: StaticString = #function) -> Key.Value {
        guard let value = storage[key] else { fatalError("configure sets Application.\(name)") }
        return value
    }
}
