import Foundation

/// The words that rank a catalogue's names: what the plain food is called, its other forms, and the
/// group words a catalogue puts before a food's own name.
extension CatalogSearch {
    /// Words that describe the plain food and so do not push it down.
    public static let plainWords: Set<String> = ["raw", "whole", "fresh", "plain", "nfs", "brewed", "granulated", "tap"]
    /// Words that make a name another form of the food, or something made from it ("Almond oil",
    /// "Chicken, meatless", "Tomato powder"): such a name comes after the food itself unless the
    /// query asks for it. Stemmed as ``terms(_:)`` stems.
    public static let otherFormWords: Set<String> = [
        "meatless", "imitation", "substitute", "babyfood", "pickled", "fried", "candied", "dehydrated", "powder", "powdered", "dip",
        "syrup", "spread", "oil", "flour", "juice", "sauce", "soup", "salad", "sandwich", "cake", "cracker", "nugget", "bit", "paste",
        "nectar", "peel", "leave", "cider", "candy", "pancake", "toast", "gumbo", "patty", "muffin", "bread", "dried", "glazed", "drink",
    ]
    /// Words a catalogue puts before a food's own name ("Nuts, walnuts", "Fish, cod"): the word
    /// after one counts as the name's first.
    public static let groupWords: Set<String> = ["nut", "fish", "spice", "beverage", "seed", "squash", "crustacean", "mollusk"]
}
