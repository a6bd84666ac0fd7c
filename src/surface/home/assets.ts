// The home page's stylesheet and script, served from this service so the page's Content-Security-Policy can
// allow 'self' and nothing else (no inline code, no inline handlers). The script only enhances: the form works
// without it.

const CSS = `:root{color-scheme:light dark}
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:46rem;margin:0 auto;padding:1rem;color:#1a1a1a;background:#fff}
a{color:#0645ad}
input,select,button{font:inherit;padding:.45rem .6rem;border:1px solid #555;border-radius:4px;background:#fff;color:#1a1a1a}
input{width:100%;box-sizing:border-box}
button{background:#1a4d8f;color:#fff;border-color:#1a4d8f;cursor:pointer}
:focus-visible{outline:3px solid #d35400;outline-offset:2px}
.help{font-size:.9em;color:#444;margin-top:-.5rem}
pre{white-space:pre-wrap;word-break:break-word;background:#f4f4f4;padding:.75rem;border-radius:4px;max-height:32rem;overflow:auto}
iframe{width:100%;height:28rem;border:1px solid #999;border-radius:4px;background:#fff}
[role=alert]{color:#8b0000}
@media (prefers-color-scheme:dark){body{background:#111;color:#e6e6e6}a{color:#8ab4f8}.help{color:#c8c8c8}pre{background:#1d1d1d}
input,select{background:#1d1d1d;color:#e6e6e6;border-color:#aaa}[role=alert]{color:#ff8a80}}
`;

const JS = `'use strict';
(function () {
  var form = document.getElementById('convert');
  if (!form || !window.fetch) return;
  var input = document.getElementById('url');
  var format = document.getElementById('format');
  var thread = document.getElementById('thread');
  var result = document.getElementById('result');
  var previewSection = document.getElementById('preview-section');
  var preview = document.getElementById('preview');

  function el(tag, text) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // A handle reads at /{handle}; anything else is read as a pasted link by prefixing it (/{link}), with a scheme so
  // that the service's link reader judges it (text that is no link at all is refused in that reader's words).
  function target(value) {
    var v = value.trim();
    if (/^@?[A-Za-z0-9_]{1,15}$/.test(v)) return '/' + v.replace(/^@/, '');
    return '/' + encodeURIComponent(/^https?:\\/\\//i.test(v) ? v : 'https://' + v);
  }
  function canonical(res, fallback) {
    var link = res.headers.get('link') || '';
    var m = /<([^>]+)>;\\s*rel="?canonical"?/.exec(link);
    if (!m) return fallback;
    try { var u = new URL(m[1]); return u.pathname + u.search; } catch (e) { return fallback; }
  }
  function bindCopy(button, status, text) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var done = function () { status.textContent = 'Copied.'; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () { status.textContent = 'Select the text and copy it.'; });
      } else {
        status.textContent = 'Select the text and copy it.';
      }
    });
  }
  function show(nodes) {
    while (result.firstChild) result.removeChild(result.firstChild);
    nodes.forEach(function (n) { result.appendChild(n); });
    result.hidden = false;
  }

  var button = document.getElementById('copy');
  var output = document.getElementById('output');
  if (button && output) bindCopy(button, document.getElementById('copied'), output.textContent);

  form.addEventListener('submit', function (ev) {
    var value = input.value.trim();
    if (!value) return;
    ev.preventDefault();
    var params = new URLSearchParams();
    var fmt = format.value;
    if (fmt === 'expanded') params.set('full', 'true');
    if (fmt === 'obsidian' || fmt === 'json') params.set('format', fmt);
    if (thread.value !== 'full') params.set('thread', thread.value);
    var path = target(value);
    var qs = params.toString();
    show([el('p', 'Converting…')]);
    previewSection.hidden = true;
    fetch(path + (qs ? '?' + qs : ''), { headers: { accept: fmt === 'json' ? 'application/json' : 'text/markdown' } })
      .then(function (res) {
        return res.text().then(function (text) {
          var permalink = canonical(res, path);
          var share = el('p', 'On this service: ');
          var a = el('a', location.origin + permalink);
          a.id = 'permalink';
          a.href = permalink;
          share.appendChild(a);
          if (!res.ok) {
            var msg = text;
            try { var p = JSON.parse(text); msg = p.title + ': ' + (p.detail || ''); } catch (e) { /* keep the text */ }
            var alert = el('p', msg);
            alert.setAttribute('role', 'alert');
            show([el('h2', 'Could not convert'), alert]);
            return;
          }
          var pre = el('pre', text);
          pre.id = 'output';
          pre.tabIndex = 0;
          var copy = el('button', 'Copy');
          copy.type = 'button';
          copy.id = 'copy';
          var status = el('span');
          status.id = 'copied';
          status.setAttribute('role', 'status');
          var bar = el('p');
          bar.appendChild(copy);
          bar.appendChild(document.createTextNode(' '));
          bar.appendChild(status);
          show([el('h2', 'Result'), share, bar, pre]);
          bindCopy(copy, status, text);
          // The preview is the service's own HTML page of the same read, in a sandbox (no scripts, no same origin).
          var u = new URL(permalink, location.href);
          u.searchParams.delete('format');
          preview.src = u.pathname + u.search;
          previewSection.hidden = false;
        });
      })
      .catch(function () {
        var alert = el('p', 'The service could not be reached.');
        alert.setAttribute('role', 'alert');
        show([el('h2', 'Could not convert'), alert]);
      });
  });
})();
`;

export const HOME_ASSETS = {
  css: { path: '/assets/home.css', mediaType: 'text/css; charset=utf-8', body: CSS },
  js: { path: '/assets/home.js', mediaType: 'text/javascript; charset=utf-8', body: JS },
} as const;
