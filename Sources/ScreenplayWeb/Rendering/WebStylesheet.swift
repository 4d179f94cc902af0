/// The pages' stylesheet: the palette as `--sp-*` variables (light and dark), the site shell, and
/// one rule set per node role. Inline in every page (no second request before first paint);
/// pages are cached rendered, so it costs bytes, not work.
enum WebStylesheet {
    static let css = palette + shell + nodes + controls + player + dialogs

    /// Colors: the standard tokens, and the boxes' own (notices, errors) in both schemes, every
    /// pair at least 4.5:1.
    static let palette = """
        :root{--sp-primaryText:#1d1d1f;--sp-secondaryText:#5f5f66;--sp-accent:#7a1fd6;--sp-background:#fff;--sp-surface:#f1f2f8;\
        --sp-positive:#1a7f37;--sp-negative:#c62828;--sp-border:rgba(120,120,130,.28);--sp-notice-bg:#e6f4ea;--sp-notice-text:#14532d;\
        --sp-error-bg:#fdecea;--sp-error-text:#8e1c1c;--sp-on-accent:#fff;--sp-shadow:0 2px 12px rgba(0,0,0,.12);\
        font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--sp-primaryText);line-height:1.4}
        @media (prefers-color-scheme:dark){:root{--sp-primaryText:#f2f2f7;--sp-secondaryText:#b4b4bd;--sp-accent:#c9a3ff;\
        --sp-background:#111114;--sp-surface:#202028;--sp-positive:#4ade80;--sp-negative:#f87171;--sp-border:rgba(160,160,175,.3);\
        --sp-notice-bg:#12301c;--sp-notice-text:#c6f6d5;--sp-error-bg:#3b1518;--sp-error-text:#ffd5d5;--sp-on-accent:#1a0b2e;\
        --sp-shadow:0 2px 14px rgba(0,0,0,.6);color-scheme:dark}}

        """

    static let shell = """
        *,*::before,*::after{box-sizing:border-box}
        body{margin:0;background:var(--sp-background);color:var(--sp-primaryText)}
        html{scroll-padding-top:64px}html:has(body.has-player){scroll-padding-bottom:120px}
        body.has-player main{padding-bottom:120px}
        a{color:var(--sp-accent)}
        :focus-visible{outline:3px solid var(--sp-accent);outline-offset:2px}
        .visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
        .skip-link{position:absolute;left:8px;top:-48px;z-index:30;background:var(--sp-accent);color:var(--sp-on-accent);padding:8px 14px;border-radius:8px}
        .skip-link:focus{top:8px}
        .site-header{position:sticky;top:0;z-index:20;background:var(--sp-background);border-bottom:1px solid var(--sp-border)}
        .site-header .bar{max-width:1120px;margin:0 auto;padding:8px 16px;display:flex;flex-wrap:wrap;align-items:center;gap:8px 20px}
        .brand{font-weight:700;font-size:18px;color:var(--sp-primaryText);text-decoration:none;white-space:nowrap}
        .site-header nav ul{display:flex;gap:4px;list-style:none;margin:0;padding:0;flex-wrap:wrap}
        .site-header nav a{display:block;padding:6px 10px;border-radius:8px;text-decoration:none;color:var(--sp-primaryText)}
        .site-header nav a:hover{background:var(--sp-surface)}
        .site-header nav a[aria-current=page]{background:var(--sp-surface);color:var(--sp-accent);font-weight:600}
        .site-search[hidden]{display:none}.site-search{position:relative}
        .suggestions{position:absolute;top:calc(100% + 6px);left:0;right:0;z-index:35;margin:0;padding:6px;list-style:none;background:var(--sp-surface);\
        border:1px solid var(--sp-border);border-radius:12px;box-shadow:var(--sp-shadow);max-height:min(420px,60vh);overflow:auto}
        .suggestions[hidden]{display:none}
        .suggestions a{display:flex;flex-direction:column;padding:8px 10px;border-radius:8px;color:inherit;text-decoration:none}
        .suggestions .subtitle{color:var(--sp-secondaryText);font-size:13px;margin:0}
        .suggestions a[aria-selected=true],.suggestions a:hover{background:color-mix(in srgb,var(--sp-accent) 14%,transparent)}
        .suggestions a[aria-selected=true]{outline:2px solid var(--sp-accent);outline-offset:-2px}.site-search{display:flex;gap:6px;flex:1 1 240px;max-width:420px;margin-left:auto}
        .site-search input{flex:1;min-width:0;font:inherit;padding:7px 12px;border-radius:999px;border:1px solid var(--sp-border);background:var(--sp-surface);color:var(--sp-primaryText)}
        .site-search button{font:inherit;padding:7px 14px;border-radius:999px;border:1px solid var(--sp-accent);background:var(--sp-accent);color:var(--sp-on-accent);cursor:pointer}
        main{display:block;max-width:1120px;margin:0 auto;padding:16px 16px 48px;overflow-wrap:anywhere}
        main:focus{outline:none}
        main[aria-busy=true]>:not(.hero):not(.progress){opacity:.55}
        main[aria-busy=true]::before{content:"";position:fixed;top:0;left:0;height:3px;width:40%;background:var(--sp-accent);z-index:40;animation:sp-busy 1s ease-in-out infinite alternate}
        @keyframes sp-busy{from{transform:translateX(-10%)}to{transform:translateX(160%)}}
        @media (prefers-reduced-motion:reduce){main[aria-busy=true]::before{animation:none;width:100%}}
        @media (max-width:560px){.site-header{position:static}.site-header .bar{padding:8px 12px}.site-search{flex-basis:100%;max-width:none}main{padding:12px 12px 40px}}

        """

    static let nodes = """
        .hero{display:flex;gap:20px;align-items:center;margin:8px 0 16px}
        .hero img{width:168px;height:168px;flex:0 0 auto;border-radius:14px;object-fit:cover;background-color:var(--sp-surface)}
        .hero h1{margin:0;font-size:clamp(26px,4vw,38px);line-height:1.15}
        .hero-text{min-width:0}
        .subtitle{color:var(--sp-secondaryText);display:block;margin:4px 0 0}
        @media (max-width:560px){.hero{flex-direction:column;align-items:flex-start;gap:12px}.hero img{width:120px;height:120px}}
        main section{margin:0 0 28px}
        section>h2,.heading h2{font-size:22px;margin:8px 0 10px}
        .heading{margin:8px 0 10px}.heading h2{margin:0}
        .paragraphs p{max-width:72ch}
        .carousel-frame{position:relative}
        .carousel{display:flex;gap:16px;overflow-x:auto;scroll-snap-type:x mandatory;scroll-padding-inline:2px;scroll-behavior:smooth;list-style:none;padding:4px 2px 12px;margin:0;scrollbar-width:thin}
        .carousel li{flex:0 0 136px;scroll-snap-align:start;min-width:0}
        .carousel a{display:flex;flex-direction:column;align-items:center;gap:6px;text-decoration:none;color:var(--sp-primaryText);text-align:center}
        .carousel img{width:112px;height:112px;object-fit:cover;border-radius:12px}
        .carousel.portrait img{border-radius:50%}
        .carousel .title,.grid .title{display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden;font-weight:600;font-size:15px;line-height:1.25}
        .carousel .subtitle,.grid .subtitle{font-size:13px;margin:0;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
        .carousel-scroll{position:absolute;top:38px;z-index:2;width:40px;height:40px;border-radius:50%;border:1px solid var(--sp-border);background:var(--sp-background);color:var(--sp-primaryText);font-size:24px;line-height:1;cursor:pointer;box-shadow:var(--sp-shadow)}
        .carousel-scroll[data-scroll="-1"]{left:-6px}.carousel-scroll[data-scroll="1"]{right:-6px}
        .carousel-scroll:disabled{opacity:0;pointer-events:none}
        .grid{display:grid;gap:16px;list-style:none;padding:0;margin:0;grid-template-columns:repeat(var(--columns,2),minmax(0,1fr))}
        @media (min-width:760px){.grid{grid-template-columns:repeat(auto-fill,minmax(200px,1fr))}}
        .grid img{width:100%;height:auto;aspect-ratio:1;object-fit:cover;border-radius:10px}
        .grid a{display:flex;flex-direction:column;gap:4px;text-decoration:none;color:inherit}
        .row{display:flex;align-items:center;gap:12px;padding:10px 0;border-bottom:1px solid var(--sp-border);min-width:0}
        .row[aria-current=true]{background:var(--sp-surface);box-shadow:inset 3px 0 0 var(--sp-accent);padding-left:10px}\
        .row[aria-current=true] .title{color:var(--sp-accent);font-weight:600}[hidden]{display:none!important}
        .row>a:not(.action),.row>form:not(.inline){display:flex;gap:12px;align-items:center;text-decoration:none;color:inherit;flex:1;min-width:0}
        .row .text-block{flex:1;min-width:0}.row .title{display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden;overflow-wrap:anywhere}
        .row>.action,.row>form.inline{flex:0 0 auto}
        .row img{width:52px;height:52px;border-radius:8px;flex:0 0 auto;object-fit:cover}
        .row>a:hover .title{color:var(--sp-accent)}
        .row:has(>a.play){position:relative;cursor:pointer}.row>a.play::after{content:"";position:absolute;inset:0}
        .row:has(>a.play):hover{background:color-mix(in srgb,var(--sp-accent) 6%,transparent)}
        .accessory{margin-left:auto;color:var(--sp-secondaryText);font-size:13px;font-variant-numeric:tabular-nums;white-space:nowrap}
        .progress{color:var(--sp-secondaryText)}
        .menu{display:flex;gap:8px;flex-wrap:wrap;margin:0 0 20px}form.inline{display:inline}
        .notice{position:fixed;z-index:40;left:16px;right:16px;bottom:24px;margin:0 auto;width:fit-content;max-width:min(560px,calc(100vw - 32px));\
        background:var(--sp-notice-bg);color:var(--sp-notice-text);padding:12px 18px;border-radius:12px;box-shadow:var(--sp-shadow);\
        pointer-events:none;animation:sp-toast var(--sp-toast,5s) ease forwards}
        body.has-player .notice{bottom:104px}
        @keyframes sp-toast{0%{opacity:0;transform:translateY(8px)}5%{opacity:1;transform:none}90%{opacity:1}100%{opacity:0;visibility:hidden}}
        @keyframes sp-toast-still{0%,99%{opacity:1}100%{opacity:0;visibility:hidden}}
        @media (prefers-reduced-motion:reduce){.notice{animation-name:sp-toast-still}}
        .error{background:var(--sp-error-bg);color:var(--sp-error-text);padding:10px 14px;border-radius:10px}
        .error p{margin:0 0 8px}.error p:last-child{margin:0}
        section>.action,section>form.inline{display:inline-block;margin:4px 0 12px}
        section>.stack{margin-bottom:12px;border-radius:10px}.stack{min-width:0}.stack>.row{flex:1}
        .stack.horizontal{flex-wrap:wrap}
        @media (max-width:560px){.stack.horizontal .action.favorite .label{display:none}}
        .spacer{min-width:0}

        """

    static let controls = """
        button,.action{font:inherit}
        .action{display:inline-flex;align-items:center;gap:6px;padding:7px 14px;border-radius:999px;border:1px solid var(--sp-accent);background:var(--sp-background);color:var(--sp-accent);cursor:pointer;text-decoration:none;line-height:1.2}
        .action:hover{background:var(--sp-surface)}
        .action.primary{background:var(--sp-accent);color:var(--sp-on-accent)}
        .action.plain{border-color:transparent}
        .action.favorite[aria-pressed=true]{background:var(--sp-accent);color:var(--sp-on-accent)}
        .action .label[data-other]{display:inline-flex;flex-direction:column;text-align:start}
        .action .label[data-other]::after{content:attr(data-other);height:0;overflow:hidden;visibility:hidden}
        .action[aria-busy=true]{opacity:.7}
        button[disabled],.action[aria-disabled]{opacity:.5;cursor:not-allowed}
        .row-button{all:unset;display:flex;gap:12px;align-items:center;flex:1;cursor:pointer}
        .row-button:focus-visible{outline:3px solid var(--sp-accent);outline-offset:2px}
        ol.reorder{list-style:none;margin:0 0 12px;padding:0}
        .reorder-row{display:flex;align-items:center;gap:6px;border-bottom:1px solid var(--sp-border);background:var(--sp-background)}
        .reorder-row>:first-child{flex:1;min-width:0}.reorder-row .row{border-bottom:0}.reorder-moves{display:flex;gap:2px;flex:0 0 auto}
        @media (max-width:560px){.reorder-moves{flex-direction:column}.reorder-move{min-height:32px}.reorder-row{gap:2px}}
        .reorder-moves form{margin:0}
        .reorder-move,.reorder-handle{min-width:40px;min-height:40px;border-radius:10px;border:1px solid transparent;background:none;color:var(--sp-secondaryText);cursor:pointer;font:inherit}
        .reorder-move:hover,.reorder-handle:hover{background:var(--sp-surface);color:var(--sp-accent)}
        .reorder-move:focus-visible,.reorder-handle:focus-visible{outline:3px solid var(--sp-accent);outline-offset:1px}
        .reorder-handle{display:none;cursor:grab;touch-action:none}.sp-reorder .reorder-handle{display:inline-block}.reorder-row.dragging{box-shadow:var(--sp-shadow);position:relative;z-index:2}
        .reorder-row.dragging .reorder-handle{cursor:grabbing}
        details.more{position:relative;z-index:1;flex:0 0 auto}details.more[open]{z-index:25}details.more>summary{list-style:none}details.more>summary::-webkit-details-marker{display:none}
        .more-toggle{display:grid;place-items:center;min-width:40px;min-height:40px;border-radius:10px;color:var(--sp-secondaryText);cursor:pointer;font-size:1.25em}
        .more-toggle:hover,details.more[open]>.more-toggle{background:var(--sp-surface);color:var(--sp-accent)}
        .more-toggle:focus-visible{outline:3px solid var(--sp-accent);outline-offset:1px}
        .more-panel{position:absolute;right:0;top:calc(100% + 4px);z-index:20;display:flex;flex-direction:column;align-items:stretch;gap:4px;padding:8px;border-radius:12px;background:var(--sp-surface);box-shadow:var(--sp-shadow);min-width:220px}
        .more-panel .action{width:100%;justify-content:flex-start;text-align:start;border-color:transparent;background:none}.more-panel form{margin:0}
        .more-panel .action:hover{background:var(--sp-background)}
        details.share{display:inline-block;position:relative;margin:0 8px 0 0}
        details.share>summary[data-copied]::after{content:" · " attr(data-copied)}
        details.share>summary{list-style:none}details.share>summary::-webkit-details-marker{display:none}
        .share-panel{position:absolute;z-index:15;left:0;top:calc(100% + 6px);padding:10px;border-radius:10px;background:var(--sp-surface);box-shadow:var(--sp-shadow);width:min(360px,80vw)}
        .share-panel input{width:100%;font:inherit;padding:6px 8px;margin-top:4px;border:1px solid var(--sp-border);border-radius:6px;background:var(--sp-background);color:var(--sp-primaryText)}
        .field{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0 12px}.field:has(>.suggestions){position:relative}
        .field label{flex:1 0 100%;font-weight:600}
        .field input{flex:1;min-width:0;font:inherit;padding:9px 12px;border-radius:10px;border:1px solid var(--sp-secondaryText);background:var(--sp-background);color:var(--sp-primaryText)}
        .field button{font:inherit;padding:9px 16px;border-radius:999px;border:1px solid var(--sp-accent);background:var(--sp-accent);color:var(--sp-on-accent);cursor:pointer}
        .field-error{flex:1 0 100%;margin:0;color:var(--sp-negative)}.field-error:empty{display:none}
        .field-limit{flex:1 0 100%;margin:0;color:var(--sp-secondaryText);font-size:13px}
        .field-limit.over{color:var(--sp-negative);font-weight:600}

        """

    static let player = """
        .player{position:fixed;left:0;right:0;bottom:0;margin:0;z-index:25;background:var(--sp-surface);border-top:1px solid var(--sp-border);box-shadow:var(--sp-shadow);\
        display:grid;grid-template-columns:minmax(0,1fr) auto minmax(0,1.4fr);align-items:center;gap:8px 20px;padding:10px max(16px,calc((100vw - 1120px)/2))}
        .player[hidden]{display:none}
        .player-track{min-width:0;display:flex;align-items:center;gap:10px}.player-text{min-width:0;display:flex;flex-direction:column}
        .player-art{width:44px;height:44px;border-radius:6px;flex:0 0 auto;object-fit:cover}.player-art[hidden]{display:none}
        .player-title{font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .player-subtitle{color:var(--sp-secondaryText);font-size:13px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .player-controls{display:flex;gap:8px;align-items:center}
        .player-button{width:42px;height:42px;border-radius:50%;border:1px solid var(--sp-border);background:var(--sp-background);color:var(--sp-primaryText);cursor:pointer;display:inline-flex;align-items:center;justify-content:center;padding:0}
        .player-button .when-playing,.player-button[data-playing] .when-paused{display:none}.player-button[data-playing] .when-playing{display:inline}
        .player-button.primary{width:48px;height:48px;background:var(--sp-accent);color:var(--sp-on-accent);border-color:var(--sp-accent)}
        .player-time{display:flex;align-items:center;gap:10px;font-variant-numeric:tabular-nums;font-size:13px;color:var(--sp-secondaryText)}
        .player-time input{flex:1;min-width:60px;accent-color:var(--sp-accent)}
        .player-button.minor{width:36px;height:36px;border-color:transparent;background:transparent}
        .player-button[aria-pressed=true],.player-button[aria-expanded=true]{color:var(--sp-accent);border-color:var(--sp-accent);background:color-mix(in srgb,var(--sp-accent) 12%,transparent)}
        .player-queue{position:absolute;bottom:100%;right:max(12px,calc((100vw - 1120px)/2));width:min(420px,calc(100vw - 24px));max-height:min(60vh,480px);overflow:auto;\
        background:var(--sp-surface);border:1px solid var(--sp-border);border-radius:12px 12px 0 0;box-shadow:var(--sp-shadow);padding:8px 8px 12px}
        .player-queue h2{font-size:15px;margin:4px 8px 8px}.player-queue ol{list-style:none;margin:0;padding:0}
        .queue-row{display:flex;flex-direction:column;align-items:flex-start;width:100%;min-width:0;text-align:left;font:inherit;padding:8px 10px;border:0;border-radius:8px;background:none;color:var(--sp-primaryText);cursor:pointer}
        .queue-row:hover{background:color-mix(in srgb,var(--sp-accent) 8%,transparent)}.queue-row[aria-current=true]{cursor:default}
        .queue-row[aria-current=true] .queue-title{color:var(--sp-accent);font-weight:600}.queue-row[aria-current=true] .queue-title::before{content:"▶ "}
        .queue-title,.queue-subtitle{max-width:100%;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}.queue-subtitle{font-size:13px;color:var(--sp-secondaryText)}
        @media (max-width:640px){.player{grid-template-columns:auto minmax(0,1fr) auto auto auto;grid-template-areas:"track track prev toggle next" "shuffle time time queue more";gap:4px 6px;padding:8px 12px}\
        .player-controls{display:contents}.player-track{grid-area:track}.player-time{grid-area:time}[data-player=previous]{grid-area:prev}[data-player=toggle]{grid-area:toggle}\
        [data-player=next]{grid-area:next}[data-player=shuffle]{grid-area:shuffle}[data-player=queue]{grid-area:queue}[data-player=more]{grid-area:more}}
        .player-menu-item{display:block;width:100%;text-align:left;font:inherit;padding:10px;border:0;border-radius:8px;background:none;color:var(--sp-primaryText);cursor:pointer;text-decoration:none}
        .player-menu-item:hover{background:color-mix(in srgb,var(--sp-accent) 8%,transparent)}#sp-track-menu ul{list-style:none;margin:0;padding:0}#sp-track-menu form{display:block}

        """

    static let dialogs = """
        .choices{list-style:none;padding:0;margin:8px 0}.choices li{margin:8px 0}
        .choice{display:flex;flex-direction:column;align-items:flex-start;width:100%;min-width:0;overflow-wrap:anywhere;text-align:left;font:inherit;padding:10px 14px;border-radius:10px;border:1px solid var(--sp-border);background:var(--sp-background);color:var(--sp-primaryText);cursor:pointer}
        .choice:hover{border-color:var(--sp-accent)}
        .choice .subtitle{font-size:13px}
        .dialog-actions{display:flex;gap:8px;justify-content:flex-end;margin-top:16px}
        dialog.sp-dialog{overflow-wrap:anywhere;border:none;border-radius:16px;padding:20px 22px;width:min(480px,calc(100vw - 24px));max-height:calc(100vh - 48px);background:var(--sp-background);color:var(--sp-primaryText);box-shadow:var(--sp-shadow)}
        dialog.sp-dialog::backdrop{background:rgba(0,0,0,.45)}
        dialog.sp-dialog h1{font-size:22px;margin:0 0 8px}

        """
}
