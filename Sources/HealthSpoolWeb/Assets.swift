/// The style sheet and the one script, served from memory: no third-party asset, nothing
/// fetched from the internet.
enum Assets {
    /// Large text (18 px), 48 px targets, strong contrast and focus rings; one column when narrow.
    static let css = """
        *{box-sizing:border-box}
        html{font-size:112.5%}
        body{margin:0;font-family:system-ui,"DejaVu Sans",sans-serif;line-height:1.5;color:#1a1a1a;background:#f6f6f2}
        a{color:#0b4f9c}
        a:focus,button:focus,input:focus,select:focus,summary:focus{outline:3px solid #b35900;outline-offset:2px}
        .skip{position:absolute;left:-999px;top:0;background:#fff;padding:.6rem 1rem}
        .skip:focus{left:1rem}
        header{background:#14365c;color:#fff;padding:.5rem 1rem}
        .brand{margin:.2rem 0;font-size:1.3rem;font-weight:700}
        nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.4rem}
        nav a{display:inline-flex;align-items:center;min-height:48px;padding:.3rem .9rem;color:#fff;border-radius:6px;text-decoration:none;font-weight:600}
        nav a[aria-current=page]{background:#fff;color:#14365c}
        nav a:hover{text-decoration:underline}
        .nav-narrow{display:none;margin:0;padding:0;border:0}
        .nav-narrow summary{display:inline-flex;align-items:center;min-height:48px;padding:.3rem .9rem;border:2px solid #fff;border-radius:6px;color:#fff;font-weight:700;cursor:pointer}
        .nav-narrow[open] summary{background:#fff;color:#14365c}
        .nav-narrow nav{position:absolute;left:0;right:0;top:100%;z-index:10;background:#14365c;padding:.4rem 1rem .8rem;box-shadow:0 6px 10px rgba(0,0,0,.3)}
        .nav-narrow ul{flex-direction:column}
        main{max-width:60rem;margin:0 auto;padding:1rem}
        h1{font-size:1.8rem;margin:.5rem 0 1rem}
        h2{font-size:1.35rem;margin:1.5rem 0 .5rem}
        .card{background:#fff;border:1px solid #c8c8c0;border-radius:8px;padding:1rem;margin:0 0 1rem}
        .card>h2:first-child,.card>input[type=hidden]+p{margin-top:0}
        .field{margin:0 0 .8rem}
        label{display:block;font-weight:600;margin-bottom:.2rem}
        .hint{margin:0 0 .3rem;color:#444}
        input[type=text],input[type=number],input[type=time],input[type=date],select,textarea{font:inherit;min-height:48px;width:100%;max-width:24rem;padding:.4rem .6rem;border:2px solid #555;border-radius:6px;background:#fff;color:#1a1a1a}
        button,.button{font:inherit;font-weight:600;min-height:48px;min-width:48px;padding:.5rem 1.1rem;border-radius:6px;border:2px solid #14365c;background:#14365c;color:#fff;cursor:pointer;display:inline-flex;align-items:center;text-decoration:none}
        button.secondary,.button.secondary{background:#fff;color:#14365c}
        .emergency{font-size:1.15rem;font-weight:600;margin:.2rem 0 1rem}
        .notice.attention{background:#fff4e0;border:2px solid #6b4a00}
        .home-figures{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fit,minmax(13rem,1fr));gap:.6rem 1rem}
        .home-figures .ft{display:block;font-weight:600;color:#333}
        .home-figures .fv{display:block;font-size:1.2rem;font-weight:700}
        .home-figures .when{font-size:1rem;font-weight:400;color:#444}
        ul.due{list-style:none;margin:0;padding:0}
        ul.due li{display:flex;flex-wrap:wrap;gap:.6rem;align-items:center;justify-content:space-between;padding:.5rem 0;border-bottom:1px solid #d8d8d0}
        ul.due .status{font-weight:400}
        .row{display:flex;flex-wrap:wrap;gap:.6rem;align-items:center}
        .check{display:flex;align-items:flex-start;gap:.6rem;min-height:48px;padding:.3rem 0}
        .check input{width:28px;height:28px;margin:.2rem 0 0;flex:none}
        .check label{font-weight:600;margin:0}
        .check .hint{font-weight:400}
        fieldset{border:1px solid #c8c8c0;border-radius:8px;margin:0 0 1rem;padding:.6rem 1rem}
        legend{font-weight:700;font-size:1.15rem;padding:0 .3rem}
        table{border-collapse:collapse;width:100%}
        th,td{text-align:left;padding:.45rem .5rem;border-bottom:1px solid #d8d8d0;vertical-align:top}
        .state{font-size:1.4rem;font-weight:700}
        .state.error{color:#a10000}.state.success{color:#0a6b2b}.state.locked{color:#6b4a00}
        .notice{padding:.7rem 1rem;border-radius:6px;font-weight:600}
        .notice.ok{background:#e3f4e6;border:2px solid #0a6b2b}
        .notice.error{background:#fde8e8;border:2px solid #a10000}
        progress{width:100%;max-width:30rem;height:28px}
        .tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:1rem}
        .tiles a{display:block;min-height:48px;padding:1rem;background:#fff;border:2px solid #14365c;border-radius:8px;font-weight:700;font-size:1.15rem;text-decoration:none}
        .next{border-style:dashed;color:#444}
        svg.bars{display:block;max-width:24rem}
        svg.bars text{font-size:16px}
        /* A phone: the menu folds behind a "Menu" button, less space around the content. */
        @media (max-width:45em){
        header{position:relative;display:flex;align-items:center;justify-content:space-between;gap:.4rem;padding:.25rem 1rem}.brand{margin:0}
        .nav-wide{display:none}.nav-narrow{display:block}
        main{padding:.5rem 1rem}h1{font-size:1.5rem;margin:.3rem 0 .6rem}.card{padding:.7rem}fieldset{padding:.4rem .7rem}
        }
        """

    /// Sync now: posts with the CSRF token, then follows the progress the server sends.
    static let js = """
        "use strict";
        document.addEventListener("DOMContentLoaded", function () {
          var csrf = document.querySelector('meta[name="csrf"]');
          var button = document.getElementById("sync-now");
          if (!button || !csrf) return;
          var bar = document.getElementById("sync-progress");
          var text = document.getElementById("sync-text");
          button.addEventListener("click", function (ev) {
            ev.preventDefault();
            button.disabled = true;
            text.textContent = "Starting…";
            fetch("/sync", {method: "POST", headers: {"X-CSRF-Token": csrf.content}, credentials: "same-origin"})
              .then(function (r) { if (!r.ok) throw new Error("The sync could not start (" + r.status + ")."); follow(); })
              .catch(function (e) { text.textContent = e.message; button.disabled = false; });
          });
          function follow() {
            var es = new EventSource("/sync/events");
            es.onmessage = function (m) {
              var d = JSON.parse(m.data);
              bar.value = d.percent;
              bar.textContent = d.percent + " %";
              text.textContent = d.percent + " % – " + d.message;
              if (d.done) { es.close(); button.disabled = false; }
            };
            es.onerror = function () { es.close(); button.disabled = false; };
          }
        });
        """
}
