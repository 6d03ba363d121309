// Tiny DOM helpers: h('div.cls', {attrs}, children…).

export function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElement(name || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (attrs === null || typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs)) {
    children.unshift(attrs);
    attrs = {};
  }
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else if (k === 'style' && typeof v === 'string') el.style.cssText = v; // CSSOM: allowed by the CSP
    else if (k in el && k !== 'list' && k !== 'form' && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Copy text to the clipboard; falls back to selecting it when the API is unavailable. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.select();
      document.execCommand('copy');
      return true;
    }
    return false;
  }
}

/** A modal asking a question; resolves with the value of the button pressed (null: cancel,
 * Escape, a click beside it, or leaving the page: a dialog never outlives its page). */
export function modal(title, body, buttons) {
  return new Promise(resolve => {
    const close = value => {
      overlay.remove();
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('hashchange', onLeave);
      window.removeEventListener('popstate', onLeave);
      resolve(value);
    };
    const onLeave = () => close(null);
    const onKey = ev => {
      if (ev.key === 'Escape') close(null);
    };
    const box = h('div.modal', { role: 'dialog', 'aria-modal': 'true', 'aria-label': title },
      h('h2', title),
      body,
      h('div.modal-buttons', buttons.map(b =>
        h(`button.${b.primary ? 'primary' : 'secondary'}`, {
          type: 'button', 'data-testid': b.testid, onclick: () => close(b.value),
        }, b.content ?? b.label))));
    const overlay = h('div.overlay', { onclick: ev => ev.target === overlay && close(null) }, box);
    document.body.append(overlay);
    document.addEventListener('keydown', onKey);
    window.addEventListener('hashchange', onLeave);
    window.addEventListener('popstate', onLeave);
    const first = box.querySelector('button.primary') || box.querySelector('button');
    if (first) first.focus();
  });
}
