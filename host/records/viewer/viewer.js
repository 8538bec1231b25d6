"use strict";
// The replay viewer of `selfplay export --format html` (host/records/viewer.hpp). It reads the
// page's three data blocks and draws; it knows no rules: every board comes from the export, the
// first of a game in full, the others as the squares that change ("<square><piece>" for each,
// plies separated by ';'). Every stored text is put on the page as text (textContent, attribute
// values), never as markup.
(function () {
  const meta = JSON.parse(document.getElementById("sp-meta").textContent);
  // [game id, winner (-1 a draw), plies, opening, engine of player 0, engine of player 1,
  //  termination ("" by the rules), first player]
  const list = JSON.parse(document.getElementById("sp-list").textContent);
  // One game's details per line, parsed when the game is opened.
  const lines = document.getElementById("sp-games").textContent.split("\n");
  const frame = meta.frame;
  const PAGE = 100;
  const SVG = "http://www.w3.org/2000/svg";

  const SIDES = {
    ewn: ["player 0 (red cubes)", "player 1 (blue cubes)"],
    checkers: ["Black", "White"],
    gomoku: ["Black", "White"],
  };
  const sides = SIDES[frame.style] || ["player 0", "player 1"];

  // ---- DOM helpers: text is always a text node
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }
  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = String(text);
    return node;
  }
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  // ---- the page
  document.title = "selfplay: " + meta.file;
  const header = el("header", {},
    el("h1", {}, meta.file),
    el("p", {}, meta.game + " " + meta.kind + ", " + meta.games + " games, rules " + meta.rules +
      (meta.host ? ", written on " + meta.host : "") +
      (meta.start_time ? " from " + meta.start_time : "")),
    el("p", { id: "program" }, (meta.program ? "played by " + meta.program + "; " : "") +
      "exported by " + meta.exported_by),
    meta.match ? el("pre", { id: "match" }, meta.match) : "");
  const winnerFilter = el("select", { id: "f-winner" },
    el("option", { value: "" }, "any"),
    el("option", { value: "0" }, sides[0] + " won"),
    el("option", { value: "1" }, sides[1] + " won"),
    el("option", { value: "-1" }, "draw"));
  const minPlies = el("input", { id: "f-min", type: "number", min: 0 });
  const maxPlies = el("input", { id: "f-max", type: "number", min: 0 });
  const openingFilter = el("input", { id: "f-opening", type: "text", placeholder: "contains" });
  const engineFilter = el("input", { id: "f-engine", type: "text", placeholder: "contains" });
  const filters = el("fieldset", {}, el("legend", {}, "Games"),
    el("label", {}, "winner ", winnerFilter),
    el("label", {}, "plies ", minPlies, " to ", maxPlies),
    el("label", {}, "opening ", openingFilter),
    el("label", {}, "engine ", engineFilter));
  const count = el("div", { id: "count", class: "note" });
  const listBody = el("tbody");
  const listTable = el("table", { id: "list" },
    el("thead", {}, el("tr", {}, el("th", {}, "game"), el("th", {}, "result"), el("th", {}, "plies"),
      el("th", {}, "opening"), el("th", {}, "engines"))),
    listBody);
  const prevPage = el("button", { id: "page-prev" }, "previous");
  const nextPage = el("button", { id: "page-next" }, "next");
  const pageText = el("span", { id: "page" });
  const pager = el("div", { class: "pager" }, prevPage, " ", pageText, " ", nextPage);
  const games = el("section", { id: "games" }, filters, count, pager, listTable);

  const title = el("h2", { id: "title" });
  const buttons = {};
  const controls = el("div", { class: "controls" });
  for (const [id, label, hint] of [["first", "|<", "Home"], ["back", "<", "left arrow"],
    ["step", ">", "right arrow"], ["last", ">|", "End"]]) {
    buttons[id] = el("button", { id: id, title: label + " (" + hint + ")" }, label);
    controls.append(buttons[id]);
  }
  const plyText = el("span", { id: "ply" });
  controls.append(" ", plyText);
  const board = el("div", { id: "board" });
  const graph = el("div", { id: "graph" });
  const info = el("div", { id: "info" });
  const problems = el("div", { id: "problems" });
  const movesBody = el("tbody");
  const movesHead = el("thead");
  const moves = el("div", { id: "moves" }, el("table", {}, movesHead, movesBody));
  const viewer = el("section", { id: "viewer" }, title, controls, board, graph, info, problems, moves,
    el("p", { class: "note" }, "Keys: left/right a ply, Home/End the first/last position, " +
      "up/down the previous/next game of the list."));
  document.body.append(header, el("main", {}, games, viewer));

  // ---- the list
  let shown = list.map((_, k) => k);  // indices into list after the filters
  let page = 0;
  let current = -1;  // index into list of the open game
  let game = null;   // its decoded details
  let ply = 0;       // the board shown: after `ply` plies
  let geometry = null;  // of the board drawn: centre(square) -> [x, y], step
  let mistakes = new Map();  // ply -> [value, value at the mover's next searched ply]

  function resultText(g) {
    if (g[1] === -1) return "draw";
    return sides[g[1]] + " won" + (g[6] ? " (" + g[6] + ")" : "");
  }
  function engineName(k) {
    return meta.engines[k] || "";
  }

  function applyFilters() {
    const w = winnerFilter.value;
    const lo = minPlies.value === "" ? -Infinity : Number(minPlies.value);
    const hi = maxPlies.value === "" ? Infinity : Number(maxPlies.value);
    const opening = openingFilter.value.toLowerCase();
    const engine = engineFilter.value.toLowerCase();
    shown = [];
    for (let k = 0; k < list.length; ++k) {
      const g = list[k];
      if (w !== "" && g[1] !== Number(w)) continue;
      if (g[2] < lo || g[2] > hi) continue;
      if (opening && !g[3].toLowerCase().includes(opening)) continue;
      if (engine && !engineName(g[4]).toLowerCase().includes(engine) &&
          !engineName(g[5]).toLowerCase().includes(engine)) continue;
      shown.push(k);
    }
    page = 0;
    drawList();
  }

  function drawList() {
    clear(listBody);
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    page = Math.min(page, pages - 1);
    for (const k of shown.slice(page * PAGE, (page + 1) * PAGE)) {
      const g = list[k];
      const row = el("tr", { "data-game": g[0] },
        el("td", {}, g[0]), el("td", {}, resultText(g)), el("td", {}, g[2]),
        el("td", {}, g[3] || "(start)"),
        el("td", { class: "engines", title: engineName(g[4]) + " / " + engineName(g[5]) },
          engineName(g[4]) + " / " + engineName(g[5])));
      if (k === current) row.className = "chosen";
      row.addEventListener("click", () => open(k, 0));
      listBody.append(row);
    }
    count.textContent = shown.length + " of " + list.length + " games";
    pageText.textContent = "page " + (page + 1) + " of " + pages;
    prevPage.disabled = page === 0;
    nextPage.disabled = page >= pages - 1;
  }

  // ---- one game
  function decode(k) {
    const d = JSON.parse(lines[k + 1]);
    const boards = [d.b];
    const deltas = d.d === "" ? [] : d.d.split(";");
    for (let p = 0; p + 1 < d.n; ++p) {
      const cells = boards[p].split("");
      const re = /(\d+)(\D)/g;
      let m;
      while ((m = re.exec(deltas[p] || "")) !== null) cells[Number(m[1])] = m[2];
      boards.push(cells.join(""));
    }
    const marks = new Map((d.k || []).map(([b, squares]) => [b, new Set(squares)]));
    return { boards: boards, moves: d.m, chances: d.c, visits: d.v, values: d.q, rollouts: d.r,
      times: d.t, searches: d.s, candidates: d.x, marks: marks, problems: d.p || [] };
  }

  function open(k, at) {
    current = k;
    game = decode(k);
    const g = list[k];
    title.textContent = "Game " + g[0] + ": " + sides[0] + " " + engineName(g[4]) + " vs " +
      sides[1] + " " + engineName(g[5]);
    clear(problems);
    for (const p of game.problems) problems.append(el("div", {}, "Replay: " + p));
    const listed = shown.indexOf(k);
    if (listed >= 0) page = Math.floor(listed / PAGE);
    mistakes = findMistakes();
    drawMoves();
    drawGraph();
    drawList();
    go(at);
  }

  // ---- what the searches thought
  // Whether ply p was searched (a forced move's value says nothing): rollouts played or counted,
  // or a depth; every ply when the file says neither.
  function searched(p) {
    if (game.searches) return game.searches[p][4] > 0 || game.searches[p][1] > 0 ||
      (game.rollouts ? game.rollouts[p] > 0 : false);
    return game.rollouts ? game.rollouts[p] > 0 : true;
  }

  // The biggest drops of each side's value, from one of its searched plies to its next: up to
  // three a side, of at least 0.1, marked as mistakes (the ply whose value was too high).
  function findMistakes() {
    const found = new Map();
    if (!game.values) return found;
    for (const side of [0, 1]) {
      const drops = [];
      let last = -1;
      for (let p = 0; p < game.moves.length; ++p) {
        if (mover(p) !== side || !searched(p)) continue;
        if (last >= 0) drops.push([last, game.values[last] - game.values[p], game.values[p]]);
        last = p;
      }
      drops.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      for (const [p, drop, after] of drops.slice(0, 3))
        if (drop >= 0.1) found.set(p, [Number(game.values[p]), Number(after)]);
    }
    return found;
  }

  // The value of each ply for its mover over the game, one line a side; a point opens the
  // position its move was played from, mistakes ringed.
  function drawGraph() {
    clear(graph);
    if (!game.values || !game.moves.length) return;
    const n = game.moves.length, W = 520, H = 150, x0 = 36, y0 = 10, w = W - x0 - 10, h = H - 40;
    const x = (p) => x0 + (n > 1 ? p * w / (n - 1) : w / 2);
    const y = (v) => y0 + (1 - v) * h;
    const root = svg("svg", { id: "graph-svg", width: W, height: H, viewBox: "0 0 " + W + " " + H,
      role: "img", "aria-label": "value of each ply for its mover" });
    for (const v of [0, 0.5, 1]) {
      root.append(svg("line", { x1: x0, y1: y(v), x2: x0 + w, y2: y(v), stroke: "#ccc" }));
      root.append(svg("text", { x: x0 - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 10,
        fill: "#444" }, v.toFixed(1)));
    }
    root.append(svg("text", { x: x0 + w / 2, y: H - 6, "text-anchor": "middle", "font-size": 10,
      fill: "#444" }, "ply (value for the side to move, " + sides[0] + " dark, " + sides[1] +
      " light)"));
    const colours = ["#222", "#2f81f7"];
    for (const side of [0, 1]) {
      const points = [];
      for (let p = 0; p < n; ++p) if (mover(p) === side) points.push(p);
      if (points.length > 1)
        root.append(svg("polyline", { points: points.map((p) => x(p) + "," +
          y(game.values[p])).join(" "), fill: "none", stroke: colours[side], "stroke-width": 1.5 }));
      for (const p of points) {
        const dot = svg("circle", { class: mistakes.has(p) ? "point mistake" : "point",
          "data-ply": p, cx: x(p), cy: y(game.values[p]), r: mistakes.has(p) ? 5 : 3,
          fill: colours[side], stroke: mistakes.has(p) ? "#e03030" : "none", "stroke-width": 2 });
        dot.append(svg("title", {}, "ply " + (p + 1) + " " + game.moves[p] + ": value " +
          Number(game.values[p]).toFixed(3)));
        dot.addEventListener("click", () => go(p));
        root.append(dot);
      }
    }
    graph.append(root);
  }

  // The square a label names ("c3", checkers "14"), -1 for none.
  function squareOf(label) {
    if (frame.squares && frame.squares.length) return frame.squares.indexOf(label);
    const m = /^([a-z]+)([0-9]+)$/.exec(label);
    if (!m) return -1;
    const c = frame.columns.indexOf(m[1]), r = frame.rows.indexOf(m[2]);
    return c < 0 || r < 0 ? -1 : r * frame.width + c;
  }
  // The squares a ply's text names, its chance outcome left out: "3:b4-c3" -> b4, c3.
  function plySquares(text) {
    const move = text.includes(":") ? text.slice(text.indexOf(":") + 1) : text;
    return move.split(/[-x]/).map(squareOf).filter((k) => k >= 0);
  }

  // Numbers the plies of a line on the board where each ends (the first ply by `first`).
  function showLine(texts, first) {
    hideLine();
    const root = board.querySelector("svg");
    if (!root || !geometry) return;
    const g = svg("g", { id: "pv-overlay" });
    texts.forEach((text, i) => {
      const squares = plySquares(text);
      if (!squares.length) return;
      const k = squares[squares.length - 1];
      const [cx, cy] = geometry.centre(k);
      const dark = (first + i) % 2 === 0;
      const mark = svg("g", { class: "pv-mark", "data-square": k, "data-order": i + 1 });
      mark.append(svg("circle", { cx: cx, cy: cy, r: geometry.step * 0.3, fill: dark ? "#222" : "#fff",
        "fill-opacity": 0.85, stroke: "#2f81f7", "stroke-width": 2 }));
      mark.append(svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 12,
        fill: dark ? "#fff" : "#000" }, i + 1));
      g.append(mark);
    });
    root.append(g);
  }
  function hideLine() {
    const g = board.querySelector("#pv-overlay");
    if (g) g.remove();
  }

  // Gomoku: the visits of the candidates of the position shown, shaded on their squares.
  function drawHeatmap() {
    if (frame.style !== "gomoku" || !game.candidates || ply >= game.moves.length) return;
    const rows = game.candidates[ply];
    const root = board.querySelector("svg");
    if (!rows.length || !root || !geometry) return;
    const most = Math.max(1, ...rows.map((r) => r[1]));
    const g = svg("g", { id: "heatmap" });
    for (const [move, visits, value] of rows) {
      const squares = plySquares(move);
      if (!squares.length) continue;
      const [cx, cy] = geometry.centre(squares[0]);
      const spot = svg("circle", { cx: cx, cy: cy, r: geometry.step * 0.42, fill: "#e8590c",
        "fill-opacity": (0.15 + 0.65 * visits / most).toFixed(3), "data-square": squares[0],
        "data-visits": visits });
      spot.append(svg("title", {}, move + ": " + visits + " visits, value " +
        Number(value).toFixed(3)));
      g.append(spot);
    }
    root.append(g);
  }

  function mover(p) {
    // Plies alternate from the first player.
    return (list[current][7] + p) % 2;
  }

  function drawMoves() {
    clear(movesHead);
    clear(movesBody);
    const cols = ["ply", "side"];
    if (game.chances) cols.push("die");
    cols.push("move");
    if (game.visits) cols.push("visits");
    if (game.values) cols.push("value");
    if (game.rollouts) cols.push("rollouts");
    if (game.times) cols.push("ms");
    movesHead.append(el("tr", {}, ...cols.map((c) => el("th", {}, c))));
    game.moves.forEach((move, p) => {
      const cells = [el("td", {}, p + 1), el("td", {}, sides[mover(p)])];
      if (game.chances) cells.push(el("td", {}, game.chances[p]));
      const mistake = mistakes.get(p);
      const cell = el("td", mistake ? { class: "move mistake", "data-ply": p + 1, title:
        "mistake: value " + mistake[0].toFixed(3) + ", " + mistake[1].toFixed(3) +
        " at this side's next move" } : { class: "move", "data-ply": p + 1 }, move);
      cell.addEventListener("click", () => go(p + 1));
      cells.push(cell);
      if (game.visits) cells.push(el("td", {}, game.visits[p]));
      if (game.values) cells.push(el("td", {}, Number(game.values[p]).toFixed(3)));
      if (game.rollouts) cells.push(el("td", {}, game.rollouts[p]));
      if (game.times) cells.push(el("td", {}, Number(game.times[p]).toFixed(1)));
      movesBody.append(el("tr", {}, ...cells));
    });
  }

  function go(p) {
    if (!game) return;
    ply = Math.max(0, Math.min(p, game.boards.length - 1));
    const cells = game.boards[ply];
    const before = ply > 0 ? game.boards[ply - 1] : null;
    clear(board);
    board.append(draw(cells, before, game.marks.get(ply) || new Set()));
    drawHeatmap();
    for (const dot of graph.querySelectorAll("circle.current")) dot.classList.remove("current");
    const dot = graph.querySelector('circle[data-ply="' + ply + '"]');
    if (dot) dot.classList.add("current");
    plyText.textContent = "ply " + ply + " of " + game.moves.length +
      (game.boards.length - 1 < game.moves.length ? " (the replay stops at ply " +
        (game.boards.length - 1) + ")" : "");
    drawInfo(cells);
    for (const td of movesBody.querySelectorAll("td.current")) td.classList.remove("current");
    const cell = movesBody.querySelector('td[data-ply="' + ply + '"]');
    if (cell) {
      cell.classList.add("current");
      // Scroll the move list alone, never the page.
      const box = moves.getBoundingClientRect(), at = cell.getBoundingClientRect();
      if (at.top < box.top + 24) moves.scrollTop -= box.top + 24 - at.top;
      else if (at.bottom > box.bottom) moves.scrollTop += at.bottom - box.bottom;
    }
    try {
      history.replaceState(null, "", "#game=" + list[current][0] + "&ply=" + ply);
    } catch (e) {
      // a page opened where the address cannot change keeps its address
    }
  }

  // Men and kings of each side on a board of this file's style. Letters mean different things in
  // each game: "b" is a Black man in checkers but blue cube 2 in EWN.
  function countPieces(cells) {
    const n = { men: [0, 0], kings: [0, 0] };
    for (const c of cells) {
      if (c === "." || c === "-") continue;
      const side = owner(c);
      if (side < 0) continue;
      if (frame.style === "checkers" && (c === "B" || c === "W")) n.kings[side]++;
      else n.men[side]++;
    }
    return n;
  }

  function drawInfo(cells) {
    clear(info);
    const g = list[current];
    info.append(el("div", { id: "result" }, "Result: " + resultText(g) + ", " + g[2] + " plies" +
      (g[3] ? ", opening " + g[3] : "")));
    if (meta.kind === "match") {
      // A match plays games in pairs, 2k and 2k + 1: the same opening with the seats swapped.
      const other = g[0] % 2 === 0 ? g[0] + 1 : g[0] - 1;
      const k = list.findIndex((h) => h[0] === other);
      const pair = el("div", { id: "pair" }, "Pair " + Math.floor(g[0] / 2) + ": the other game, ");
      if (k >= 0) {
        const link = el("a", { href: "#game=" + other + "&ply=0", id: "pair-link" }, "game " + other);
        link.addEventListener("click", (e) => { e.preventDefault(); open(k, 0); });
        pair.append(link, ", has the same opening with the seats swapped");
      } else {
        pair.append("game " + other + ", is not in this file");
      }
      info.append(pair);
    }
    if (ply > 0) {
      const p = ply - 1;
      let text = "Last move: " + sides[mover(p)] + " " + game.moves[p];
      if (game.chances) text += " (die " + game.chances[p] + ")";
      const stats = [];
      if (game.visits) stats.push(game.visits[p] + " visits");
      if (game.values) stats.push("value " + Number(game.values[p]).toFixed(3));
      if (game.rollouts) stats.push(game.rollouts[p] + " rollouts");
      if (game.times) stats.push(Number(game.times[p]).toFixed(1) + " ms");
      if (stats.length) text += "; search: " + stats.join(", ");
      if (frame.style === "checkers" &&
          countPieces(cells).kings[mover(p)] > countPieces(game.boards[p]).kings[mover(p)])
        text += "; crowned";
      info.append(el("div", { id: "last-move" }, text));
      const mistake = mistakes.get(p);
      if (mistake)
        info.append(el("div", { id: "mistake" }, "Mistake: " + sides[mover(p)] + " valued " +
          game.moves[p] + " at " + mistake[0].toFixed(3) + ", and its next search at " +
          mistake[1].toFixed(3)));
    }
    if (ply < game.moves.length) {
      let text = "To move: " + sides[mover(ply)];
      if (game.chances) text += ", die " + game.chances[ply];
      info.append(el("div", { id: "next-move" }, text));
    } else {
      info.append(el("div", { id: "next-move" }, "Final position"));
    }
    if (frame.style === "checkers" || frame.style === "ewn") {
      const start = countPieces(game.boards[0]);
      const now = countPieces(cells);
      const lost = [0, 1].map((s) => start.men[s] + start.kings[s] - now.men[s] - now.kings[s]);
      let text = "Captured: " + sides[0] + " has lost " + lost[0] + ", " + sides[1] + " " + lost[1];
      if (frame.style === "checkers")
        text += "; kings: " + sides[0] + " " + now.kings[0] + ", " + sides[1] + " " + now.kings[1];
      info.append(el("div", { id: "captured" }, text));
    }
    if (ply < game.moves.length && game.searches) drawSearch(ply);
  }

  // What the search of ply p thought (the move played from the position shown): its kind, depth
  // and score, work, principal variation and the root moves it weighed, best first.
  function drawSearch(p) {
    const [kind, depth, score, nodes, played, think, pv] = game.searches[p];
    const box = el("div", { id: "search" });
    const facts = [kind];
    if (depth >= 0) facts.push("depth " + depth, "score " + Number(score).toFixed(0));
    if (nodes) facts.push(nodes + " nodes");
    if (played) facts.push(played + " rollouts played");
    facts.push("thought " + Number(think).toFixed(1) + " ms");
    box.append(el("div", { id: "search-facts" }, "Search of " + game.moves[p] + ": " +
      facts.join(", ")));
    if (pv) {
      const line = el("div", { id: "search-pv", title: "hover: the line on the board" },
        "Principal variation: " + pv);
      line.addEventListener("mouseenter", () => showLine(pv.split(" "), mover(p)));
      line.addEventListener("mouseleave", hideLine);
      box.append(line);
    }
    const rows = game.candidates ? game.candidates[p] : [];
    if (rows.length) {
      const head = el("tr", {}, ...["#", "move", "visits", "value"].map((c) => el("th", {}, c)));
      const body = rows.map(([move, visits, value], k) => {
        const row = el("tr", move === game.moves[p] ? { class: "played" } : {},
          el("td", {}, k + 1), el("td", {}, move), el("td", {}, visits),
          el("td", {}, Number(value).toFixed(3)));
        row.addEventListener("mouseenter", () => showLine([move], mover(p)));
        row.addEventListener("mouseleave", hideLine);
        return row;
      });
      box.append(el("table", { id: "candidates" }, el("thead", {}, head),
        el("tbody", {}, ...body)));
    }
    info.append(box);
  }

  // ---- boards
  // The column labels above and below the board (x0, y0)-(x0 + w, y0 + h), the row labels left
  // and right of it, `pad` away; square i's label centred at x0 + i * step + offset.
  function labels(root, x0, y0, step, offset, w, h, pad) {
    const text = (x, y, anchor, value) => root.append(svg("text", { x: x, y: y,
      "text-anchor": anchor, "font-size": 12, fill: "#444" }, value));
    frame.columns.forEach((c, i) => {
      text(x0 + i * step + offset, y0 - pad, "middle", c);
      text(x0 + i * step + offset, y0 + h + pad + 10, "middle", c);
    });
    frame.rows.forEach((r, i) => {
      text(x0 - pad, y0 + i * step + offset + 4, "end", r);
      text(x0 + w + pad, y0 + i * step + offset + 4, "start", r);
    });
  }

  function draw(cells, before, marks) {
    const W = frame.width, H = frame.height;
    const changed = new Set();
    if (before) for (let k = 0; k < cells.length; ++k) if (cells[k] !== before[k]) changed.add(k);
    if (frame.style === "gomoku") return drawGomoku(cells, changed, marks, W, H);
    return drawSquares(cells, before, changed, marks, W, H);
  }

  function drawGomoku(cells, changed, marks, W, H) {
    const step = W > 15 ? 24 : 28, m = 46;
    geometry = { step: step, centre: (k) => [m + (k % W) * step, m + Math.floor(k / W) * step] };
    const size = [m * 2 + (W - 1) * step, m * 2 + (H - 1) * step];
    const root = svg("svg", { width: size[0], height: size[1], viewBox: "0 0 " + size[0] + " " +
      size[1], role: "img", "aria-label": "board after ply " + ply });
    root.append(svg("rect", { x: 0, y: 0, width: size[0], height: size[1], fill: "#dcb35c" }));
    for (let i = 0; i < W; ++i)
      root.append(svg("line", { x1: m + i * step, y1: m, x2: m + i * step, y2: m + (H - 1) * step,
        stroke: "#5a4120", "stroke-width": 1 }));
    for (let j = 0; j < H; ++j)
      root.append(svg("line", { x1: m, y1: m + j * step, x2: m + (W - 1) * step, y2: m + j * step,
        stroke: "#5a4120", "stroke-width": 1 }));
    labels(root, m, m, step, 0, (W - 1) * step, (H - 1) * step, step * 0.5 + 8);
    for (let k = 0; k < cells.length; ++k) {
      const c = cells[k];
      if (c !== "x" && c !== "o") continue;
      const x = m + (k % W) * step, y = m + Math.floor(k / W) * step;
      const g = svg("g", { "data-square": k, "data-piece": c });
      g.append(svg("circle", { cx: x, cy: y, r: step * 0.45, fill: c === "x" ? "#111" : "#f8f8f8",
        stroke: "#000", "stroke-width": 1 }));
      if (changed.has(k))
        g.append(svg("circle", { class: "last", cx: x, cy: y, r: step * 0.12, fill: "#e03030" }));
      if (marks.has(k))
        g.append(svg("circle", { class: "mark", cx: x, cy: y, r: step * 0.5, fill: "none",
          stroke: "#e03030", "stroke-width": 3 }));
      root.append(g);
    }
    return root;
  }

  function drawSquares(cells, before, changed, marks, W, H) {
    const checkers = frame.style === "checkers";
    const step = checkers ? 52 : 64, m = 28;
    geometry = { step: step, centre: (k) => [m + (k % W) * step + step / 2,
      m + Math.floor(k / W) * step + step / 2] };
    const size = [m * 2 + W * step, m * 2 + H * step];
    const root = svg("svg", { width: size[0], height: size[1], viewBox: "0 0 " + size[0] + " " +
      size[1], role: "img", "aria-label": "board after ply " + ply });
    labels(root, m, m, step, step / 2, W * step, H * step, 8);
    for (let k = 0; k < cells.length; ++k) {
      const x = m + (k % W) * step, y = m + Math.floor(k / W) * step;
      const c = cells[k];
      const fill = checkers ? (c === "-" ? "#f0d9b5" : "#b58863") : "#f3efe6";
      root.append(svg("rect", { x: x, y: y, width: step, height: step, fill: fill,
        stroke: checkers ? "none" : "#999" }));
      if (frame.squares.length && frame.squares[k])
        root.append(svg("text", { x: x + 3, y: y + 11, "font-size": 10, fill: "#fff" },
          frame.squares[k]));
      if (changed.has(k)) {
        // A square the last move changed: red where a piece of the side not moving was taken.
        const taken = before && before[k] !== "." && cells[k] === "." &&
          owner(before[k]) !== mover(ply - 1);
        root.append(svg("rect", { class: taken ? "taken" : "last", x: x + 2, y: y + 2,
          width: step - 4, height: step - 4, fill: "none", stroke: taken ? "#d03030" : "#f5c400",
          "stroke-width": 3 }));
      }
      if (marks.has(k))
        root.append(svg("rect", { class: "mark", x: x + 1, y: y + 1, width: step - 2,
          height: step - 2, fill: "none", stroke: "#e03030", "stroke-width": 2 }));
      if (c === "." || c === "-") continue;
      const g = svg("g", { "data-square": k, "data-piece": c });
      const cx = x + step / 2, cy = y + step / 2;
      if (checkers) {
        const black = c === "b" || c === "B";
        g.append(svg("circle", { cx: cx, cy: cy, r: step * 0.38, fill: black ? "#2b2b2b" : "#f5f1e6",
          stroke: black ? "#000" : "#666", "stroke-width": 1.5 }));
        if (c === "B" || c === "W") {
          g.append(svg("circle", { cx: cx, cy: cy, r: step * 0.26, fill: "none",
            stroke: "#d4a017", "stroke-width": 2 }));
          g.append(svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 15,
            "font-weight": "bold", fill: "#d4a017" }, "K"));
        }
      } else {
        const red = c >= "A" && c <= "F";
        const number = red ? c.charCodeAt(0) - 64 : c.charCodeAt(0) - 96;
        g.append(svg("rect", { x: x + step * 0.14, y: y + step * 0.14, width: step * 0.72,
          height: step * 0.72, rx: 8, fill: red ? "#c0392b" : "#2c6fb7", stroke: "#333" }));
        g.append(svg("text", { x: cx, y: cy + 9, "text-anchor": "middle", "font-size": 26,
          "font-weight": "bold", fill: "#fff" }, number));
      }
      root.append(g);
    }
    return root;
  }

  // The side a piece character belongs to on a board of this file's style; -1 for no piece.
  // checkers: b, B Black (0), w, W White; gomoku: x Black, o White; ewn: A-F red (player 0),
  // a-f blue (player 1).
  function owner(c) {
    if (frame.style === "checkers") return c === "b" || c === "B" ? 0 : c === "w" || c === "W" ? 1 : -1;
    if (frame.style === "gomoku") return c === "x" ? 0 : c === "o" ? 1 : -1;
    if (c >= "A" && c <= "F") return 0;
    if (c >= "a" && c <= "f") return 1;
    return -1;
  }

  // ---- controls
  buttons.first.addEventListener("click", () => go(0));
  buttons.back.addEventListener("click", () => go(ply - 1));
  buttons.step.addEventListener("click", () => go(ply + 1));
  buttons.last.addEventListener("click", () => go(Infinity));
  prevPage.addEventListener("click", () => { page--; drawList(); });
  nextPage.addEventListener("click", () => { page++; drawList(); });
  for (const f of [winnerFilter, minPlies, maxPlies, openingFilter, engineFilter])
    f.addEventListener("input", applyFilters);

  function neighbour(delta) {
    if (!shown.length) return;
    let at = shown.indexOf(current);
    at = at < 0 ? 0 : Math.max(0, Math.min(shown.length - 1, at + delta));
    page = Math.floor(at / PAGE);
    open(shown[at], 0);
  }

  document.addEventListener("keydown", (e) => {
    const t = e.target && e.target.tagName;
    if (t === "INPUT" || t === "SELECT" || t === "TEXTAREA") return;
    const keys = {
      ArrowRight: () => go(ply + 1), ArrowLeft: () => go(ply - 1), Home: () => go(0),
      End: () => go(Infinity), ArrowDown: () => neighbour(1), ArrowUp: () => neighbour(-1),
    };
    if (keys[e.key]) {
      e.preventDefault();
      if (current < 0 && e.key !== "ArrowDown" && e.key !== "ArrowUp") neighbour(0);
      else keys[e.key]();
    }
  });

  // ---- start: the game and ply the address names (#game=17&ply=5), else the first game
  drawList();
  const want = /game=(\d+)(?:&ply=(\d+))?/.exec(location.hash);
  let start = 0;
  if (want) {
    const at = list.findIndex((g) => String(g[0]) === want[1]);
    if (at >= 0) start = at;
  }
  if (list.length) open(start, want && want[2] ? Number(want[2]) : 0);
  document.body.setAttribute("data-ready", "1");
})();
