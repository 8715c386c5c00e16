/** The dashboard's one stylesheet: light and dark by the system setting, one column at 360 px. */
export const stylesCss = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1a1a1a;--muted:#4d4d4d;--line:#c8c8c8;--accent:#0b57d0;--up:#0a6b2c;--down:#b3261e;--panel:#f4f5f7;--chart:#0b57d0}
@media (prefers-color-scheme:dark){:root{--bg:#121212;--fg:#ececec;--muted:#b8b8b8;--line:#4a4a4a;--accent:#8ab4f8;--up:#6fdd8b;--down:#ff8a80;--panel:#1e1f22;--chart:#8ab4f8}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,svg:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:var(--bg);padding:4px 8px}
header{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;padding:8px 16px;border-bottom:1px solid var(--line);background:var(--panel)}
header .brand{font-weight:700;text-decoration:none;color:var(--fg)}
nav ul{display:flex;flex-wrap:wrap;gap:4px 12px;list-style:none;margin:0;padding:0}
nav a[aria-current=page]{font-weight:700;text-decoration:none}
header form{margin-left:auto}
main{padding:16px;max-width:1200px;margin:0 auto}
h1{font-size:1.5rem;margin:.5rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.twin{color:var(--muted);font-size:.875rem}
.twin code{overflow-wrap:anywhere}
.table-wrap{overflow-x:auto;border:1px solid var(--line);border-radius:4px}
table{border-collapse:collapse;width:100%}
th,td{padding:6px 10px;text-align:left;border-bottom:1px solid var(--line);vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.title{overflow-wrap:anywhere;min-width:14ch}
.up{color:var(--up)}.down{color:var(--down)}.unknown{color:var(--muted)}
.pager{display:flex;gap:12px;align-items:center;margin:8px 0}
form.stack{display:grid;gap:10px;max-width:32rem}
form.inline{display:inline}
label{display:grid;gap:2px;font-weight:600}
label.check{display:flex;gap:6px;align-items:center}
input,select,button{font:inherit;padding:6px 8px;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}
button{cursor:pointer;background:var(--panel)}
button.primary{background:var(--accent);color:var(--bg);border-color:var(--accent)}
.error{border:1px solid var(--down);color:var(--down);padding:8px 12px;border-radius:4px}
.notice{border:1px solid var(--line);padding:8px 12px;border-radius:4px}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:8px;margin:0 0 1rem;padding:0}
.figures div{background:var(--panel);padding:8px;border-radius:4px}
.figures dt{color:var(--muted);font-size:.875rem}.figures dd{margin:0;font-size:1.25rem;font-weight:700}
figure.chart{margin:0 0 1.5rem}
figure.chart svg{width:100%;max-width:720px;height:auto;display:block}
svg .line{fill:none;stroke:var(--chart);stroke-width:2}
svg .dot{fill:var(--chart)}
svg .axis{stroke:var(--line)}
svg text{fill:var(--muted);font-size:12px}
svg.spark{width:80px;height:20px}
svg.spark .line{stroke-width:1.5}
p.description{white-space:pre-line;overflow-wrap:anywhere;max-width:70ch}
figcaption{color:var(--muted);font-size:.875rem}
output.readout{display:block;min-height:1.5em;font-variant-numeric:tabular-nums}
details{margin:.5rem 0}
@media (max-width:600px){main{padding:8px}th,td{padding:4px 6px}h1{font-size:1.25rem}}
`;
