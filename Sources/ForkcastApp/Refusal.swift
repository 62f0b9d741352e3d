import ForkcastCore
import Foundation

/// A change a use case refuses for a reason other than a field's value (those are ForkcastCore's
/// ``ValidationError``). The adapters present it: the API and sync as a problem (409 or 404 naming
/// the field), a page next to the field it concerns.
public enum Refusal: Error, Sendable, Equatable {
    /// The change clashes with something the person already has ("Your food “Oats” already has
    /// barcode …", "“Oats” is an ingredient of “Porridge”").
    case conflict(String)
    /// The server does not allow the change at all, whoever asks ("Sign-up is closed").
    case notAllowed(String)
    /// What the change is about is not there for the person (a link used up or revoked, someone
    /// not in their household): 404.
    case notFound(String)
    /// A field names something the person does not have (an ingredient's food): `field` is the
    /// input's path, e.g. `ingredients[2].foodId`.
    case missingReference(field: String, detail: String)
    /// An edit's new time moves an entry to another occasion, and the person did not confirm the
    /// move (seed 004 §7): the occasion it is in and the one it would move to.
    case occasionChange(from: OccasionRef, to: OccasionRef)
    /// The change comes from before what the server can still tell apart (a synced change older
    /// than the deletions it remembers): the device must pull everything again (410).
    case outOfDate(String)
    /// Amounts big enough to be a slip ("150 servings of Carrots, raw is 7,872 kcal — did you mean
    /// 150 g?"), each on the field of its item, asked before they are logged (``LogEntry/plate(_:confirming:)``).
    case largeAmounts([ValidationError.Field])
    /// What the change would store is past what the server keeps (the household's recipe photos): 413.
    case tooLarge(String)
}
