import ForkcastApp
import ForkcastCore
import Foundation

private func fmtR(_ v: Double) -> String { String(format: "%.0f", v) }

/// The SVG rings: one large for calories (what remains), three small for protein, carbs and fat.
enum Rings {
    /// `remaining` is the day's own figure (ForkcastCore's DiaryDay), never recomputed here.
    static func large(consumed: Decimal, remaining: Decimal, goal: Decimal) -> HTML {
        let progress = goal > 0 ? min(1, max(0, (consumed / goal).finiteDouble)) : 0
        let r = 52.0, c = 2 * Double.pi * r
        return """
        <svg class="ring large\(if: remaining < 0, " over")" viewBox="0 0 120 120" role="img" aria-label="\(remaining >= 0 ? "\(remaining.display(0)) kcal remaining" : "\((-remaining).display(0)) kcal over") of \(goal.display(0)) kcal">
          <circle class="track" cx="60" cy="60" r="\(fmtR(r))"/>
          <circle class="fill calories" cx="60" cy="60" r="\(fmtR(r))" stroke-dasharray="\(String(format: "%.1f %.1f", c * progress, c))" transform="rotate(-90 60 60)"/>
          <text x="60" y="58" text-anchor="middle" class="ring-value" id="calories-remaining">\(remaining >= 0 ? remaining.display(0) : "+" + (-remaining).display(0))</text>
          <text x="60" y="76" text-anchor="middle" class="ring-label">\(remaining >= 0 ? "kcal left" : "kcal over")</text>
        </svg>
        """
    }

    static func small(label: String, cls: String, consumed: Decimal, goal: Decimal) -> HTML {
        let progress = goal > 0 ? min(1, max(0, (consumed / goal).finiteDouble)) : 0
        let r = 30.0, c = 2 * Double.pi * r
        return """
        <figure class="macro-ring">
          <svg class="ring small" viewBox="0 0 80 80" role="img" aria-label="\(label): \(consumed.gramsText) of \(goal.gramsText) g">
            <circle class="track" cx="40" cy="40" r="\(fmtR(r))"/>
            <circle class="fill \(cls)" cx="40" cy="40" r="\(fmtR(r))" stroke-dasharray="\(String(format: "%.1f %.1f", c * progress, c))" transform="rotate(-90 40 40)"/>
            <text x="40" y="45" text-anchor="middle" class="ring-small-value">\(consumed.display(0))</text>
          </svg>
          <figcaption><span class="\(cls)-text">\(label)</span> <span class="nowrap">\(consumed.gramsText) / \(goal.gramsText)&nbsp;g</span></figcaption>
        </figure>
        """
    }
}
