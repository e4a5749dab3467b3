"""Accessibility checks run inside a page (Playwright), for test_browser_a11y.py.

``audit(page)`` finds the form controls with no accessible name and the images/SVG parts with
no name; ``tab_walk(page)`` presses Tab through the page and reports the focusable elements
Tab never reached and those it reached without a visible focus indicator.

The accessible name is computed as the accname rules do for these elements, in their order:
aria-labelledby, aria-label, the control's <label>s, the content (buttons, links, summaries),
a submit input's value, an SVG element's <title> child, the title attribute; an <img> is named
by its alt (alt="" marks it decorative). Elements under aria-hidden="true" are left out.
"""

from __future__ import annotations

from typing import Any

#: Defines window.__a11y in the page: name(), the element lists, and the focus indicator.
HELPERS = r"""() => {
  const text = (e) => (e.textContent || '').replace(/\s+/g, ' ').trim();
  const hidden = (e) => Boolean(e.closest('[aria-hidden="true"]'));
  function name(e) {
    const by = e.getAttribute('aria-labelledby');
    if (by) {
      const t = by.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean)
        .map(text).join(' ').trim();
      if (t) return t;
    }
    const aria = (e.getAttribute('aria-label') || '').trim();
    if (aria) return aria;
    if (e.labels && e.labels.length) {
      const t = [...e.labels].map(text).join(' ').trim();
      if (t) return t;
    }
    if (['BUTTON', 'A', 'SUMMARY'].includes(e.tagName) && text(e)) return text(e);
    const buttonInput = ['submit', 'button', 'reset'].includes(e.type);
    if (e.tagName === 'INPUT' && buttonInput && e.value) return e.value;
    if (e instanceof SVGElement) {
      const t = e.querySelector(':scope > title');
      if (t && text(t)) return text(t);
    }
    const title = (e.getAttribute('title') || '').trim();
    if (title) return title;
    if (e.tagName === 'IMG' && e.hasAttribute('alt')) {
      return e.getAttribute('alt') || '(decorative)';
    }
    return '';
  }
  const describe = (e) => e.outerHTML.slice(0, 160);
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    const up = (n) => n.parentElement && n.parentElement.closest('details');
    for (let d = up(e); d; d = up(d)) {  // folded away in a closed <details>
      if (!d.open && !(e.tagName === 'SUMMARY' && e.parentElement === d)) return false;
    }
    const s = getComputedStyle(e);
    return s.visibility !== 'hidden' && s.display !== 'none' && (r.width > 0 || r.height > 0);
  };
  const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), '
    + 'select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';
  function focusables() {
    const all = [...document.querySelectorAll(FOCUSABLE)];
    return all.filter((e) => visible(e) && !e.closest('[inert]'));
  }
  // A visible indicator: an outline or a box shadow while :focus-visible (SVG shapes drawn on
  // the board included: site.css gives them an outline too).
  function indicator(e) {
    const s = getComputedStyle(e);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
    return e.matches(':focus-visible') && (outline || (s.boxShadow && s.boxShadow !== 'none'));
  }
  window.__a11y = { name, describe, focusables, indicator, hidden };
}"""

AUDIT = r"""() => {
  const { name, describe, hidden } = window.__a11y;
  const controls = [...document.querySelectorAll(
    'input:not([type="hidden"]), select, textarea, button')];
  const unnamed = controls.filter((e) => !hidden(e) && !name(e)).map(describe);
  const pictures = [...document.querySelectorAll(
    'img, svg:not(svg svg), [role="img"], [role="group"], [role="button"], svg g.ship')];
  const unnamedPictures = pictures.filter((e) => !hidden(e) && !name(e)).map(describe);
  return { controls: controls.length, unnamed, pictures: pictures.length, unnamedPictures };
}"""

NUMBER = """() => {
  const all = window.__a11y.focusables();
  all.forEach((e, i) => { e.dataset.a11yIndex = String(i); });
  return all.map((e) => window.__a11y.describe(e));
}"""

START = """() => {
  window.scrollTo(0, 0);
  document.body.setAttribute('tabindex', '-1');
  document.body.focus();
  document.body.removeAttribute('tabindex');
}"""

FOCUSED = """() => {
  const a = document.activeElement;
  if (!a || a === document.body || a.dataset.a11yIndex === undefined) return [null, false];
  return [Number(a.dataset.a11yIndex), window.__a11y.indicator(a)];
}"""


def audit(page: Any) -> dict[str, Any]:
    """The page's controls and pictures, with those that have no accessible name."""
    page.evaluate(HELPERS)
    return page.evaluate(AUDIT)


def tab_walk(page: Any) -> dict[str, Any]:
    """Tab from the top of the page through it once. ``missed``: focusable elements Tab never
    reached; ``no_indicator``: those reached without a visible indicator; ``order``: the
    elements' indexes (in document order) as Tab reached them."""
    page.evaluate(HELPERS)
    every = page.evaluate(NUMBER)
    # Start from the top: focusing the body (made focusable for the moment) moves the point Tab
    # starts from there, wherever a click left it (a calculator's Calculate button, say).
    page.evaluate(START)
    order: list[int] = []
    no_indicator: list[str] = []
    for _ in range(len(every) + 3):
        page.keyboard.press("Tab")
        index, shown = page.evaluate(FOCUSED)
        if index is None:
            continue
        if order and index == order[0]:
            break  # round the page once
        order.append(index)
        if not shown:
            no_indicator.append(every[index])
    missed = [every[i] for i in range(len(every)) if i not in set(order)]
    return {"count": len(every), "order": order, "missed": missed, "no_indicator": no_indicator}
