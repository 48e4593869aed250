/** The proposal's stylesheet: served with the pages', inlined in `evalgate show --format html`. */
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
