import Foundation

extension FoodDraft {
    /// An Open Food Facts product as one of the person's foods. Real products sometimes break the
    /// rules (rounding pushes macros just past 100 g, sugars above carbohydrates): the values that do
    /// are dropped, so the person gets the product and can fix the rest. A product without a name
    /// is named after its barcode.
    public func importable(barcode: Barcode? = nil) -> FoodDraft {
        var d = self
        if d.name.trimmed.isEmpty, let barcode { d.name = "Product \(barcode.digits)" }
        d.icon = .generic
        do { _ = try d.validated(); return d } catch {
            for field in error.fields {
                switch field.field {
                case "per100.sugars": d.per100.sugars = nil
                case "per100.saturatedFat": d.per100.saturatedFat = nil
                case "per100.energyKcal": d.per100.energyKcal = nil
                case "per100.fiber": d.per100.fiber = nil
                case "per100.salt": d.per100.salt = nil
                case "serving.size", "serving.unit": d.serving = nil
                case "barcode": d.barcode = nil
                case "name": d.name = String(d.name.prefix(FoodDraft.maximumNameLength))
                default: break
                }
            }
            return d
        }
    }
}
