// What the layout sweep measures in a page (test_layout_sweep.py runs it with execute_script:
// whether the width is a phone's, and the width). Returns a list of {check, what, size}.
const [phone, W] = arguments;
const minSide = phone ? 44 : 24;
const out = [];
const vw = W;
function describe(el) {
  let s = el.tagName.toLowerCase();
  if (el.id) s += '#' + el.id;
  const cls = [...el.classList].slice(0, 3).join('.');
  if (cls) s += '.' + cls;
  const parent = el.parentElement && el.parentElement.closest('[id], [class]');
  if (parent && !el.id) {
    let p = parent.tagName.toLowerCase() + (parent.id ? '#' + parent.id : '') +
      ([...parent.classList].length ? '.' + [...parent.classList].slice(0, 2).join('.') : '');
    s = p + ' ' + s;
  }
  const text = (el.getAttribute('aria-label') || el.innerText || el.value || el.getAttribute('name') || '').trim().replace(/\s+/g, ' ');
  return s + (text ? ' "' + text.slice(0, 40) + '"' : '');
}
function shown(el) {
  if (!el.checkVisibility({visibilityProperty: true, opacityProperty: false})) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}
function visuallyHidden(el) {
  for (let e = el; e && e !== document.body; e = e.parentElement) {
    const cs = getComputedStyle(e);
    const r = e.getBoundingClientRect();
    if (e.classList.contains('visually-hidden')) return true;
    if ((cs.position === 'absolute' || cs.position === 'fixed') && r.width <= 1 && r.height <= 1) return true;
    if (cs.clip && cs.clip !== 'auto' && cs.position === 'absolute') return true;
  }
  return false;
}
function clippedByScroller(el) {
  // Inside a box that scrolls or clips sideways, an element may sit beyond the viewport on purpose:
  // what matters is that the scroller itself fits (it is measured on its own).
  for (let e = el.parentElement; e && e !== document.body && e !== document.documentElement; e = e.parentElement) {
    const ox = getComputedStyle(e).overflowX;
    if (ox !== 'visible') return true;
  }
  return false;
}
const size = r => Math.round(r.width) + 'x' + Math.round(r.height);

// 1. Sideways overflow.
const sw = document.documentElement.scrollWidth;
if (sw > vw + 1) out.push({check: 'overflow', what: 'document scrollWidth ' + sw + ' > ' + vw, size: ''});
const all = [...document.body.querySelectorAll('*')];
const offenders = [];
for (const el of all) {
  if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.right <= vw + 1) continue;
  if (!shown(el) || visuallyHidden(el) || clippedByScroller(el)) continue;
  // Report the outermost offender only: its children overflow with it.
  if (offenders.some(o => o.contains(el))) continue;
  offenders.push(el);
  out.push({check: 'overflow', what: describe(el) + ' right edge ' + Math.round(r.right) + ' > ' + vw, size: size(r)});
}

// 2. Squeezed text: a box narrower than 40 px (about four characters) whose text of 4+ characters
// breaks over several lines or is clipped. A short word that fits on one line is not squeezed.
const NAMED = '.meal-title, .planned-name, .food-name, .entry-name, .panel-meal, .picker-item, h1, h2, h3, h4, ' +
  'label, p, li, td, th, dt, dd, a, button, legend, summary, figcaption';
function lines(el) {
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = new Set();
  for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) tops.add(Math.round(r.top / 4));
  return tops.size;
}
for (const el of all) {
  // The width first: reading the text (innerText) of every element of a long page took most of
  // the sweep's time.
  const r = el.getBoundingClientRect();
  if (r.width >= 40 || el.closest('svg')) continue;
  const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim();
  const text = el.matches(NAMED) ? el.innerText.trim() : own;
  if (!text || [...text].length < 4) continue;
  if (!shown(el) || visuallyHidden(el)) continue;
  const clipped = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible';
  if (lines(el) > 1 || clipped) out.push({check: 'squeezed text', what: describe(el), size: size(r)});
}

// 3. Nothing marked hidden shows.
for (const el of document.querySelectorAll('[hidden]')) {
  if (el.checkVisibility() && el.getClientRects().length > 0) {
    out.push({check: 'hidden shows', what: describe(el) + ' display:' + getComputedStyle(el).display, size: size(el.getBoundingClientRect())});
  }
}

// 4. Target sizes.
function inlineInProse(el) {
  if (el.tagName !== 'A') return false;
  if (getComputedStyle(el).display !== 'inline') return false;
  let block = el.parentElement;
  while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
  if (!block || !block.matches('p, li, dd, td, .hint, .flash, .empty, .form-error, .field-error')) return false;
  if (block.closest('nav, .tabs, .strip, .meal-actions, .form-actions, .page-head, .range-toggle, .week-nav')) return false;
  if (el.hasAttribute('download')) return false;  // a download is an action
  // Links side by side with only separators between them ("CSV · JSON") are a row of actions.
  for (const dir of ['previousSibling', 'nextSibling']) {
    let n = el[dir];
    while (n && n.nodeType === 3 && /^[\s·|,\/–-]*$/.test(n.textContent)) n = n[dir];
    if (n && n.nodeType === 1 && n.tagName === 'A') return false;
  }
  // Running text: the sentence around the link is longer than the link itself.
  const around = block.innerText.replace(el.innerText, '').trim();
  return around.length >= 3;
}
const seen = new Set();
for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]')) {
  let target = el;
  if (el.matches('input[type=radio], input[type=checkbox]')) {
    const label = el.closest('label') || (el.id && document.querySelector('label[for="' + CSS.escape(el.id) + '"]'));
    if (label) target = label;
  }
  if (seen.has(target)) continue;
  seen.add(target);
  if (el.matches('.skip') && document.activeElement !== el) {
    // The skip link shows on focus only; measure it all the same (it is a control).
  } else if (!shown(target) || (visuallyHidden(target) && target === el)) {
    continue;
  }
  if (inlineInProse(el)) { out.push({check: 'exempt', what: describe(el), size: size(el.getBoundingClientRect())}); continue; }
  const r = target.getBoundingClientRect();
  if (r.width + 0.5 < minSide || r.height + 0.5 < minSide) {
    out.push({check: 'target ' + minSide + 'px', what: describe(target), size: size(r)});
  }
}

// 6. Cards keep apart: two cards that are not one inside the other stand at least 8 px apart.
const cards = [...document.querySelectorAll('.card')].filter(c => shown(c) && !visuallyHidden(c)).map(c => [c, c.getBoundingClientRect()]);
for (let i = 0; i < cards.length; i++) {
  for (let j = i + 1; j < cards.length; j++) {
    const [a, ra] = cards[i], [b, rb] = cards[j];
    if (a.contains(b) || b.contains(a)) continue;
    const apart = Math.max(Math.max(ra.left, rb.left) - Math.min(ra.right, rb.right), Math.max(ra.top, rb.top) - Math.min(ra.bottom, rb.bottom));
    if (apart < 8) out.push({check: 'cards touch', what: describe(a) + ' and ' + describe(b) + ' ' + Math.round(apart) + ' px apart', size: ''});
  }
}
return out;
