/** The pages' stylesheet and scripts, served from this origin; every page works without the scripts. */
export const REVIEW_CSS = `
:root { color-scheme: light; --ink: #1d2430; --muted: #5b6475; --line: #d8dde6; --ok: #1f7a4d;
  --bad: #b42318; --warn: #b54708; --accent: #2f5bd3; --bg: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: var(--ink); background: var(--bg); }
header.top { display: flex; justify-content: space-between; align-items: center; padding: .6rem 1.2rem;
  background: #fff; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; color: var(--ink); text-decoration: none; }
.signout { display: flex; gap: .6rem; align-items: center; }
.who { color: var(--muted); }
main { max-width: 980px; margin: 1.2rem auto; padding: 0 1.2rem; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.2rem;
  margin-bottom: 1rem; }
h1 { font-size: 1.4rem; margin: .2rem 0 1rem; } h2 { font-size: 1.1rem; margin: 0 0 .6rem; }
table.queue { width: 100%; border-collapse: collapse; }
table.queue th, table.queue td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid var(--line); }
.pass { color: var(--ok); font-weight: 600; } .fail { color: var(--bad); font-weight: 600; }
.muted { color: var(--muted); }
main.wide { max-width: 1240px; }
.table-scroll { max-width: 100%; overflow-x: auto; }
table.figures { border-collapse: collapse; margin: .4rem 0; font-variant-numeric: tabular-nums; width: 100%; }
table.figures th, table.figures td { border: 1px solid var(--line); padding: .25rem .45rem; text-align: left;
  vertical-align: top; overflow-wrap: break-word; }
table.figures th { background: var(--bg); font-weight: 600; }
.calibration .note { color: var(--muted); font-size: .9rem; }
p.kappa-note { border-left: 3px solid var(--warn); padding-left: .6rem; color: var(--ink); }
@media (max-width: 720px) {
  main { padding: 0 .6rem; }
  section { padding: .8rem; }
  header.top { flex-wrap: wrap; gap: .4rem; }
  table.figures, table.figures tbody, table.figures tr, table.figures td { display: block; width: 100%; }
  table.figures thead { display: none; }
  table.figures tr { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; padding: .2rem .4rem; }
  table.figures td { border: 0; border-bottom: 1px solid var(--line); display: grid;
    grid-template-columns: minmax(7rem, 45%) 1fr; gap: .5rem; padding: .25rem 0; }
  table.figures td:last-child { border-bottom: 0; }
  table.figures td::before { content: attr(data-label); color: var(--muted); font-weight: 600; }
  table.queue { display: block; overflow-x: auto; }
}
nav.tabs { display: flex; flex-wrap: wrap; gap: .3rem; margin: 0 0 1rem; }
nav.tabs a.tab { padding: .35rem .8rem; border: 1px solid var(--line); border-radius: 6px; background: #fff;
  color: var(--ink); text-decoration: none; }
nav.tabs a.tab[aria-current=page] { border-color: var(--accent); color: var(--accent); font-weight: 600; }
.error-words { margin: 0 0 .2rem; font-weight: 600; }
.error-details { margin: 0; font-size: .85rem; }
#start-proposal-form fieldset.text-or-file { border: 1px solid var(--line); border-radius: 6px; display: grid;
  gap: .3rem; padding: .4rem .8rem .8rem; }
#start-proposal-form fieldset p { margin: 0; }
#start-proposal-form input[type=text], #start-proposal-form textarea { width: 100%; font: inherit; padding: .35rem; }
.alert { border: 2px solid var(--bad); background: #fef3f2; color: var(--bad); }
.alert h2 { color: var(--bad); }
.warnings li.injection { color: var(--bad); font-weight: 700; }
.notice { border-left: 4px solid var(--warn); }
pre.content { white-space: pre-wrap; word-wrap: break-word; background: #fbfbfc; border: 1px solid var(--line);
  padding: .8rem; border-radius: 6px; max-height: 32rem; overflow: auto; font: 14px/1.45 ui-monospace, monospace; }
svg.chart { width: 100%; height: auto; }
svg.chart text { font: 12px system-ui, sans-serif; fill: var(--ink); }
svg.chart .track { fill: #eef0f4; } svg.chart .bar-met { fill: var(--ok); } svg.chart .bar-unmet { fill: var(--bad); }
svg.chart .bar-none { fill: #98a2b3; } svg.chart .threshold { stroke: var(--ink); stroke-width: 2; }
.criterion { border-top: 1px solid var(--line); padding-top: .6rem; margin-top: .6rem; }
.criterion h3 { font-size: 1rem; margin: 0 0 .3rem; }
.columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 1rem; }
form.decision { display: grid; gap: .75rem; background: #fff; border: 1px solid var(--line); border-radius: 8px;
  padding: 1rem 1.2rem; }
form.decision textarea { width: 100%; min-height: 5rem; font: inherit; }
form.decision textarea.edit { min-height: 16rem; font: 14px/1.45 ui-monospace, monospace; }
form.decision .choices { display: grid; gap: .75rem; }
form.decision .choice { display: grid; gap: .4rem; border-top: 1px solid var(--line); padding-top: .6rem; }
form.decision .choice h3 { font-size: 1rem; margin: 0; }
form.decision .choice button { justify-self: start; }
.warnings ul.passages { font-weight: 400; margin: .2rem 0; }
details.admin-details { margin-top: .6rem; color: var(--muted); }
details.admin-details code { white-space: pre-wrap; word-break: break-word; }
ol#decisions li.decision { margin-bottom: .8rem; }
ol#decisions blockquote { margin: .2rem 0 .2rem 1rem; padding-left: .6rem; border-left: 3px solid var(--line);
  white-space: pre-wrap; }
ul.next-steps li { margin: .3rem 0; }
fieldset.corrections { border: 1px solid #ddd; padding: .25rem .75rem .5rem; }
fieldset.corrections details.correction { margin: .25rem 0; }
fieldset.corrections details.correction[open] { display: grid; gap: .25rem; }
ul.corrections { margin: .25rem 0; }
button { font: inherit; padding: .4rem .9rem; border-radius: 6px; border: 1px solid var(--line); background: #fff;
  cursor: pointer; }
button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
.signin input[type=password] { width: 100%; padding: .45rem; font: inherit; }
.error { color: var(--bad); font-weight: 600; }
ol.progress-log { color: var(--muted); }
`;

/** Each `<time datetime>` in the browser's own zone, named; the server's UTC text as its title. */
export const PAGE_SCRIPT = `"use strict";
(function () {
  if (!window.Intl || !Intl.DateTimeFormat) return;
  var base = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
    hour12: false, timeZoneName: "short" };
  var withSeconds = Object.assign({ second: "2-digit" }, base);
  var times = document.querySelectorAll("time[datetime]");
  for (var i = 0; i < times.length; i++) {
    var element = times[i];
    var instant = new Date(element.getAttribute("datetime"));
    if (isNaN(instant.getTime())) continue;
    var options = element.getAttribute("data-seconds") === "true" ? withSeconds : base;
    element.setAttribute("title", element.textContent);
    element.textContent = new Intl.DateTimeFormat(undefined, options).format(instant);
    element.setAttribute("data-local", "true");
  }
})();
`;

/** Follows the thread's events; reloads the page when a review is ready or the run ends. */
export const PROGRESS_SCRIPT = `"use strict";
(function () {
  var root = document.querySelector("[data-events-url]");
  if (!root || !("EventSource" in window)) return;
  var log = document.getElementById("progress-log");
  var source = new EventSource(root.getAttribute("data-events-url"));
  var now = document.getElementById("progress-now");
  var types = ["queued", "running", "stage", "progress", "review_ready", "finished", "failed",
    "stopped"];
  var settle = { review_ready: true, finished: true, failed: true, stopped: true };
  function show(event) {
    var data = JSON.parse(event.data);
    var text = typeof data.text === "string" ? data.text : data.type;
    if (data.type === "progress") { if (now) now.textContent = data.message || text; return; }
    if (log) { var item = document.createElement("li"); item.textContent = text; log.appendChild(item); }
    if (settle[data.type]) { source.close(); window.location.reload(); }
  }
  for (var i = 0; i < types.length; i++) source.addEventListener(types[i], show);
  root.setAttribute("data-live", "true");
})();
`;

/* The proposal's stylesheet: served with the pages', inlined in `evalgate show --format html`. */
export const PROPOSAL_CSS = `
span.text, blockquote.text { white-space: pre-line; }
blockquote.text, .markdown-text blockquote { margin: .4rem 0; padding-left: .8rem; border-left: 3px solid #d8dde6;
  color: #5b6475; }
.markdown-text h4, .markdown-text h5, .markdown-text h6 { margin: .8rem 0 .3rem; }
.markdown-text .table-scroll { max-width: 100%; overflow-x: auto; margin: .5rem 0; }
.markdown-text table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
.markdown-text th, .markdown-text td { border: 1px solid #d8dde6; padding: .3rem .5rem; text-align: left;
  vertical-align: top; }
.markdown-text th { background: #f6f7f9; }
.markdown-text pre, pre.code { white-space: pre-wrap; word-wrap: break-word; background: #fbfbfc;
  border: 1px solid #d8dde6; padding: .6rem; border-radius: 6px; font: 13px/1.45 ui-monospace, monospace; }
dl.fields { display: grid; grid-template-columns: minmax(8rem, 14rem) 1fr; gap: .3rem 1rem; margin: .3rem 0; }
dl.fields dt { font-weight: 600; } dl.fields dd { margin: 0; } dl.fields ul { margin: 0; padding-left: 1.2rem; }
ol.items { padding-left: 1.2rem; } ol.items h4 { margin: .6rem 0 .2rem; }
article.proposal section { margin-bottom: 1rem; }
table.gates td, table.gates th { vertical-align: top; font-size: 14px; }
ul.decisions { margin: 0; padding-left: 1rem; }
p.draft { border-left: 4px solid #b54708; padding-left: .6rem; }
.feedback-answered { border-left: 4px solid #2f5bd3; padding-left: .6rem; }
fieldset.field-form { border: 1px solid #d8dde6; padding: .4rem .8rem .8rem; margin: .4rem 0; }
fieldset.field-form label { display: block; font-weight: 600; margin-top: .4rem; }
fieldset.field-form textarea { width: 100%; min-height: 3rem; font: inherit; }
.field-error { color: #b42318; font-weight: 600; margin: .2rem 0; }
`;

/** The page of a proposal file on its own: the base look, then PROPOSAL_CSS. */
export const PROPOSAL_FILE_CSS = `
body { margin: 0; font: 15px/1.55 system-ui, sans-serif; color: #1d2430; background: #fff; }
main { max-width: 860px; margin: 1.5rem auto; padding: 0 1.2rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 1.6rem; } h3 { font-size: 1.05rem; }
table.queue { width: 100%; border-collapse: collapse; }
table.queue th, table.queue td { text-align: left; padding: .35rem .45rem; border-bottom: 1px solid #d8dde6; }
.pass { color: #1f7a4d; font-weight: 600; } .fail { color: #b42318; font-weight: 600; }
.muted { color: #5b6475; } .error { color: #b42318; }
${PROPOSAL_CSS}`;
