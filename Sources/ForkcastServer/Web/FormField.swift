/// A labelled input with its error shown next to it (and tied to it for screen readers).
struct FormField {
    var name: String
    var label: String
    var value: String? = nil
    var error: String? = nil
    var type: String = "text"
    var autocomplete: String? = nil
    var required: Bool = false
    var hint: String? = nil
    var list: String? = nil
    var maxLength: Int? = nil
    var inputMode: String? = nil

    /// Tells apart fields of the same name on one page (one form per row).
    var idSuffix: String? = nil

    var render: HTML {
        let id = "field-\(name)" + (idSuffix.map { "-\($0)" } ?? "")
        let describedBy = [error != nil ? "\(id)-error" : nil, hint != nil ? "\(id)-hint" : nil].compactMap { $0 }.joined(separator: " ")
        var attributes = ""
        if let autocomplete { attributes += " autocomplete=\"\(HTML.escape(autocomplete))\"" }
        if required { attributes += " required aria-required=\"true\"" }
        if let list { attributes += " list=\"\(HTML.escape(list))\"" }
        if let maxLength { attributes += " maxlength=\"\(maxLength)\"" }
        if let inputMode { attributes += " inputmode=\"\(HTML.escape(inputMode))\"" }
        if error != nil { attributes += " aria-invalid=\"true\"" }
        if !describedBy.isEmpty { attributes += " aria-describedby=\"\(HTML.escape(describedBy))\"" }
        return """
        <div class="field\(error != nil ? " has-error" : "")">
          <label for="\(id)">\(label)\(if: required, " <span class=\"req\" aria-hidden=\"true\">*</span>")</label>
          \(hint.map { HTML("<p class=\"hint\" id=\"\(id)-hint\">\($0)</p>") })
          <input id="\(id)" name="\(name)" type="\(type)" value="\(value ?? "")"\(HTML(raw: attributes))>
          \(error.map { HTML("<p class=\"field-error\" id=\"\(id)-error\">\($0)</p>") })
        </div>
        """
    }
}
