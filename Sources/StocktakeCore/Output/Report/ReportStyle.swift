/// The report's inline style sheet and script: one self-contained page that reads on a screen, a phone and paper.
///
/// The script only hides and sorts what the page already holds (search, filter by code and state, sort a table by
/// a column); without it every finding is still there to read and print.
enum ReportStyle {
    /// The `<style>` element's text. Tables repeat their header on each printed page, headings stay with what
    /// follows them, and under 600 px wide a table's rows become blocks whose cells carry their column's name.
    static let css = """
        body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:70em;padding:0 1em;color:#222;line-height:1.4}
        h1{font-size:1.6em;margin:.2em 0}h2{border-bottom:2px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
        h1,h2,h3,h4,h5,summary{break-after:avoid;page-break-after:avoid}summary>h3{display:inline;margin:0 .4em 0 0}
        summary{margin:.6em 0;cursor:pointer}
        table{border-collapse:collapse;margin:.5em 0 1em;width:100%}
        th,td{border:1px solid #bbb;padding:.25em .5em;text-align:left;vertical-align:top}
        thead th{background:#eee}thead{display:table-header-group}tr,.d,.walk tr{break-inside:avoid;page-break-inside:avoid}
        .number{text-align:right}.error{color:#a00}.warning{color:#8a5300}.info{color:#555}
        .facts{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em;margin:.5em 0}.facts dt{font-weight:bold}
        .d{border-left:4px solid #ccc;padding:.2em .6em;margin:.4em 0}.d h4{margin:.1em 0}
        .d ul{margin:.2em 0;padding-left:1.2em}.d li{margin:.2em 0}
        .d b{font-family:monospace}code{font-size:.95em}
        .walklist td:nth-child(4)::before{content:"";display:inline-block;width:1em;height:1em;border:1px solid #333}
        .walklist td:nth-child(5){min-width:12em;border-bottom:1px solid #333}
        .map{width:100%;max-width:640px;height:auto;border:1px solid #ccc}.map text{font-size:11px;fill:#222}
        nav ul{display:flex;flex-wrap:wrap;gap:.3em 1em;list-style:none;padding:0}
        #tools{margin:.5em 0}#tools input,#tools select{font:inherit;margin-right:.5em}
        dl.glossary dt{font-weight:bold;margin-top:.4em}
        @page{size:auto;margin:15mm 12mm}
        @media print{body{margin:0;max-width:none}#tools,nav{display:none}a{color:inherit;text-decoration:none}
        #walk,.walk+.walk{break-before:page}}
        @media (max-width:600px){body{padding:0 .5em}table,thead,tbody,tr,th,td{display:block;width:auto}
        thead{position:absolute;left:-9999px}tr{border:1px solid #bbb;margin:.4em 0}td,tbody th{border:none}
        td[data-l]::before{content:attr(data-l) ": ";font-weight:bold}
        .codes td:nth-child(1)::before{content:"Id: "}.codes td:nth-child(2)::before{content:"State: "}
        .codes td:nth-child(3)::before{content:"Device: "}.codes td:nth-child(4)::before{content:"Building: "}
        .codes td:nth-child(5)::before{content:"Room: "}.walklist td:nth-child(1)::before{content:"Room: "}
        .walklist td:nth-child(2)::before{content:"Device: "}.walklist td:nth-child(3)::before{content:"Look for: "}
        .walklist td:nth-child(5)::before{content:"Notes: "}
        .codes td::before,.walklist td::before{font-weight:bold}.number{text-align:left}.facts{grid-template-columns:1fr}}
        """

    /// The `<script>` element's text: a search box and filters over the findings, and sortable tables.
    static let script = """
        (function(){
        var t=document.getElementById('tools');if(!t)return;t.hidden=false;
        var q=document.getElementById('q'),c=document.getElementById('qc'),s=document.getElementById('qs');
        function run(){var w=q.value.toLowerCase(),cv=c.value,sv=s.value;
        document.querySelectorAll('[data-s]').forEach(function(e){var b=e.querySelector('b'),ec=b?b.textContent:e.closest('[data-c]').dataset.c;
        var ok=(!w||e.textContent.toLowerCase().indexOf(w)>=0)&&(!cv||ec===cv)&&(!sv||e.dataset.s===sv);e.hidden=!ok;});
        document.querySelectorAll('.d').forEach(function(d){d.hidden=!d.querySelector('li:not([hidden])');});
        if(w||cv||sv)document.querySelectorAll('details').forEach(function(d){d.open=!!d.querySelector('[data-s]:not([hidden])');});}
        q.addEventListener('input',run);c.addEventListener('change',run);s.addEventListener('change',run);
        document.querySelectorAll('table.sortable thead th').forEach(function(h,i){h.style.cursor='pointer';
        h.addEventListener('click',function(){var b=h.closest('table').tBodies[0],r=Array.from(b.rows),
        k=h.cellIndex,d=h.dataset.d=h.dataset.d==='1'?'-1':'1';r.sort(function(x,y){
        var a=x.cells[k].textContent,z=y.cells[k].textContent,n=parseFloat(a.replace(/,/g,'')),m=parseFloat(z.replace(/,/g,''));
        return (isNaN(n)||isNaN(m)?a.localeCompare(z):n-m)*d;});r.forEach(function(e){b.appendChild(e);});});});
        window.addEventListener('beforeprint',function(){document.querySelectorAll('details').forEach(function(e){e.open=true;});});
        })();
        """
}
