extension ReportHTML {
    /// The report's style sheet: inline in the file, `/static/report.css` on the web. On paper
    /// (A4 or Letter): no menu or controls, sections one after the other (a week's little data
    /// fits a page or two, not one page a section), no table row or chart split across pages,
    /// table headers repeated. On a phone the tables fit the screen: their cells wrap.
    public static let css = """
        .report-file{font-family:system-ui,"DejaVu Sans",sans-serif;line-height:1.45;color:#111;max-width:60rem;margin:0 auto;padding:1rem}
        .report h2{font-size:1.35rem;margin:1.6rem 0 .5rem;border-bottom:2px solid #111;padding-bottom:.2rem}
        .report h3{font-size:1.1rem;margin:1.1rem 0 .4rem}
        .report p{margin:.3rem 0}
        .report .hint{color:#333}
        .report-meta{border:1px solid #777;border-radius:6px;padding:.6rem .8rem;margin:0 0 1rem;background:#fff}
        .report-meta .source{font-style:italic}
        .report .table-wrap{overflow-x:auto;margin:.4rem 0 1rem}
        .report table{border-collapse:collapse;width:100%;margin:0}
        .report table.narrow{width:auto;min-width:50%}
        .report caption{text-align:left;font-weight:700;padding:.3rem 0}
        .report th,.report td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #bbb;vertical-align:top}
        .report thead th{border-bottom:2px solid #111}
        .report .num{text-align:right;font-variant-numeric:tabular-nums}
        .report .dose{white-space:nowrap}
        .report tr.total th,.report tr.total td{font-weight:700;border-top:2px solid #111}
        .report-chart{display:block;max-width:46rem;height:auto;margin:.2rem 0 .6rem;background:#fff}
        .report-chart text{font-size:16px}
        .report-notes{padding-left:1.2rem}
        .report-notes li{margin:.3rem 0}
        .report-notes .when{font-weight:700}
        .plan-box{border:2px solid #111;min-height:12rem;border-radius:4px;background:#fff}
        .report .ecg-strip{display:block;max-width:100%;height:auto;margin:.3rem 0 .8rem;background:#fff8f8}
        .report .ecg-advice{border-left:.3rem solid #b3261e;padding-left:.6rem;font-weight:600}
        .report td,.report th,.report-notes li{overflow-wrap:break-word}
        .report-form{margin:0 0 1.2rem}
        .report-controls code{font-family:"DejaVu Sans Mono",monospace;font-size:1em;overflow-wrap:anywhere}
        @media screen and (max-width:40rem){.report th,.report td{padding:.25rem .3rem}.report table{font-size:1rem}.report table.narrow{min-width:0;width:100%}.report-chart{margin-left:-.5rem;width:calc(100% + 1rem);overflow:visible;margin-bottom:1.4rem}.report-chart text{font-size:33px}
          .report table.stacks thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
          .report table.stacks,.report table.stacks tbody,.report table.stacks tr{display:block;width:100%;min-width:0}
          .report table.stacks tr{border-bottom:2px solid #111;padding:.3rem 0}
          .report table.stacks th,.report table.stacks td{display:flex;justify-content:space-between;gap:1rem;border:0;text-align:right;padding:.1rem 0}
          .report table.stacks [data-label]::before{content:attr(data-label);font-weight:700;text-align:left}}
        @page{size:auto;margin:16mm 14mm 16mm 14mm;@top-left{content:"Health summary";font:9pt sans-serif}@bottom-right{content:"Page " counter(page) " of " counter(pages);font:9pt sans-serif}}
        @media print{
          body{background:#fff;font-size:10.5pt}
          .report .hint{font-size:9.5pt}
          header,nav,.skip,.report-controls,.day-strip,.notice{display:none !important}
          main,.report-file{max-width:none;margin:0;padding:0}
          h1{margin:0 0 .4rem;font-size:16pt}
          .report h2{break-after:avoid;page-break-after:avoid;font-size:13pt}
          .report h3{break-after:avoid;page-break-after:avoid;font-size:11.5pt}
          .report tr,.report-chart,.keep,.plan-box,.report-notes li{break-inside:avoid;page-break-inside:avoid}
          .report thead{display:table-header-group}
          .report-chart{max-width:100%}
          .report .table-wrap{overflow:visible}
          .plan-box{min-height:150mm}
          .report table{font-size:10pt}
          .report a{color:#000;text-decoration:none}
        }
        """
}
