// Just enough of the DOM for the page's own rendering code (web/lib/view.js `el`, `renderVerdict`) to
// run at build time under Node and give HTML: elements with attributes, classes, text, children,
// `dataset`, `open`; serialized with text and attribute values escaped. Used by scripts/prerender.mjs
// to write the default view's answer into index.html, so that the first paint shows it before any
// script has run. Nothing here runs in the browser.

const VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link']);
const escapeText = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s) => escapeText(s).replace(/"/g, '&quot;');

class TextNode {
  constructor(text) { this.text = String(text); }
  get textContent() { return this.text; }
  toHtml() { return escapeText(this.text); }
}

class Element {
  constructor(tag) {
    this.tagName = tag.toLowerCase();
    this.attributes = new Map();
    this.children = [];
    const element = this;
    this.dataset = new Proxy({}, {
      set(target, key, value) {
        element.setAttribute(`data-${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, value);
        target[key] = String(value);
        return true;
      },
    });
  }
  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  set className(value) { this.setAttribute('class', value); }
  get className() { return this.getAttribute('class') || ''; }
  set id(value) { this.setAttribute('id', value); }
  get id() { return this.getAttribute('id') || ''; }
  set open(value) { if (value) this.setAttribute('open', ''); else this.attributes.delete('open'); }
  set textContent(value) { this.children = [new TextNode(value)]; }
  get textContent() { return this.children.map((c) => c.textContent).join(''); }
  append(...nodes) { for (const n of nodes) this.children.push(typeof n === 'string' ? new TextNode(n) : n); }
  replaceChildren(...nodes) { this.children = []; this.append(...nodes); }
  get innerHTML() { return this.children.map((c) => c.toHtml()).join(''); }
  toHtml() {
    const attrs = [...this.attributes].map(([k, v]) => (v === '' ? ` ${k}` : ` ${k}="${escapeAttr(v)}"`)).join('');
    return VOID.has(this.tagName) ? `<${this.tagName}${attrs}>` : `<${this.tagName}${attrs}>${this.innerHTML}</${this.tagName}>`;
  }
}

export const miniDocument = {
  createElement: (tag) => new Element(tag),
  createTextNode: (text) => new TextNode(text),
};
