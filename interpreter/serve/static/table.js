// Drawing a table, a board, a history and the end of a game from the JSON
// views of the server. Text from rules and card files is only ever set as
// text (textContent), never parsed as HTML.
"use strict";

const Table = (function () {
  const SVG = "http://www.w3.org/2000/svg";

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  // A card as a button: picking it takes the option naming it (when there
  // is exactly one), else it is looked up.
  function cardChip(card, hooks, count) {
    const picks = card.options || [];
    const chip = el("button", {
      type: "button", class: "card" + (picks.length ? " pick" : ""), "data-name": card.name,
      "data-options": picks.join(",") || null,
      title: picks.length ? "option " + picks.join(", ") + " (click to choose)" : "look at this card",
    }, card.text, count > 1 ? el("span", { class: "times", text: " ×" + count }) : null);
    chip.addEventListener("click", () => {
      if (picks.length === 1 && hooks.pick) hooks.pick(picks[0]);
      else if (picks.length > 1 && hooks.mark) hooks.mark(picks);
      else if (hooks.look) hooks.look(card.name);
    });
    return chip;
  }

  function zoneContent(zone, hooks, boards) {
    if (zone.hidden !== undefined) {
      return el("div", { class: "hidden-cards" }, ...zone.hidden.map((line) => el("div", { text: line })));
    }
    if (zone.board !== undefined && boards && boards[zone.board]) return drawBoard(boards[zone.board], hooks);
    if (zone.slots) {
      const list = el("ol", { class: "slots" });
      zone.cards.forEach((card, i) => {
        list.append(el("li", { "data-position": i + 1 }, card ? cardChip(card, hooks, 1) : el("span", { class: "empty", text: "—" })));
      });
      return list;
    }
    if (!zone.cards.length) return el("span", { class: "empty", text: "—" });
    const list = el("div", { class: "cards" });
    // Identical cards side by side that no option names are shown once, with their number;
    // cards apart are never merged: the zone's order is kept.
    const groups = [];
    for (const card of zone.cards) {
      const last = groups[groups.length - 1];
      const same = !card.options.length && last && !last.card.options.length && last.card.text === card.text && last.card.name === card.name ? last : null;
      if (same) same.count += 1;
      else groups.push({ card, count: 1 });
    }
    for (const g of groups) list.append(cardChip(g.card, hooks, g.count));
    return list;
  }

  function zoneRow(zone, hooks, boards) {
    return el("tr", { class: "zone", "data-zone": zone.zone, "data-owner": zone.owner === null ? "" : zone.owner },
      el("th", { scope: "row", text: zone.label }), el("td", {}, zoneContent(zone, hooks, boards)));
  }

  function counterRows(counters, label) {
    if (!counters.length) return [];
    const text = counters.map((c) => c.label + " " + c.value).join(", ");
    return [el("tr", { class: "counters" }, el("th", { scope: "row", text: label }), el("td", { text }))];
  }

  // The shared zones and counters, then one panel per player.
  function drawTable(container, view, hooks, options) {
    const table = view.table || view;
    const boards = view.boards || [];
    const you = options && options.you;
    clear(container);
    const shared = el("table", { class: "zones" });
    for (const zone of table.shared) shared.append(zoneRow(zone, hooks, boards));
    for (const c of table.shared_counters) {
      shared.append(el("tr", { class: "counters" }, el("th", { scope: "row", text: c.label }), el("td", { text: String(c.value) })));
    }
    const heading = options && options.heading ? options.heading : table.title + " — " + table.when;
    container.append(el("div", { class: "panel shared" }, el("h2", { text: heading }), shared));
    const seats = el("div", { class: "players" });
    for (const player of table.players) {
      const rows = el("table", { class: "zones" });
      counterRows(player.counters, "counters").forEach((r) => rows.append(r));
      for (const v of player.values) rows.append(el("tr", { class: "value" }, el("th", { scope: "row", text: v.label }), el("td", { text: String(v.value) })));
      for (const zone of player.zones) rows.append(zoneRow(zone, hooks, boards));
      let title = player.name;
      if (player.seat === you) title += " (you)";
      if (player.seat === table.first_player) title += " — first player";
      const classes = "panel player" + (player.seat === you ? " mine" : "") + (player.seat === table.current_player ? " deciding" : "");
      seats.append(el("div", { class: classes, "data-seat": player.seat }, el("h3", { text: title }), rows));
    }
    container.append(seats);
  }

  // A board: its spaces where the layout puts them, linked by lines.
  function drawBoard(board, hooks) {
    const step = 150, pad = 70;
    const xs = board.spaces.map((s) => s.x), ys = board.spaces.map((s) => s.y);
    const unit = Math.max(1e-6, smallestGap(board)) ;
    const scale = step / unit;
    const width = Math.max(...xs) * scale + 2 * pad, height = Math.max(...ys) * scale + 2 * pad;
    const root = svg("svg", { class: "board", viewBox: "0 0 " + width + " " + height, role: "img", "data-kind": board.kind });
    root.style.maxWidth = Math.min(width, 1100) + "px";
    const at = (s) => [pad + s.x * scale, pad + s.y * scale];
    for (const [a, b] of board.edges) {
      const [x1, y1] = at(board.spaces[a]), [x2, y2] = at(board.spaces[b]);
      root.append(svg("line", { x1, y1, x2, y2, class: "link" }));
    }
    board.spaces.forEach((space) => {
      const [x, y] = at(space);
      const g = svg("g", { class: "space" + (space.options.length ? " pick" : ""), "data-name": space.name, tabindex: "0" });
      g.append(svg("rect", { x: x - 62, y: y - 26, width: 124, height: 52, rx: 8 }));
      const lines = wrap(space.text, 18, 3);
      lines.forEach((line, i) => {
        const t = svg("text", { x, y: y + (i - (lines.length - 1) / 2) * 15 + 4, "text-anchor": "middle" });
        t.textContent = line;
        g.append(t);
      });
      drawMarkers(g, space.markers || [], x, y, board.markerNames || markerNames(board));
      const title = svg("title", {});
      const here = (space.markers || []).map((m) => m.label);
      title.textContent = space.text + (here.length ? " — here: " + here.join(", ") : "") +
        (space.options.length ? " — option " + space.options.join(", ") : "");
      g.append(title);
      const choose = () => {
        if (space.options.length === 1 && hooks.pick) hooks.pick(space.options[0]);
        else if (space.options.length > 1 && hooks.mark) hooks.mark(space.options);
        else if (hooks.look) hooks.look(space.name);
      };
      g.addEventListener("click", choose);
      g.addEventListener("keydown", (e) => { if (e.key === "Enter") choose(); });
      root.append(g);
    });
    return el("div", { class: "board-frame" }, root);
  }

  const MARKER_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

  function markerNames(board) {
    const names = [];
    for (const space of board.spaces) for (const m of space.markers || []) if (!names.includes(m.marker)) names.push(m.marker);
    board.markerNames = names.sort();
    return board.markerNames;
  }

  // The markers on a space (`marker` in the rules): a disc each along the
  // top of the space, coloured by the marker's name, with its label.
  function drawMarkers(g, markers, x, y, names) {
    markers.forEach((m, i) => {
      const cx = x - 52 + (i % 6) * 21, cy = y - 26 - 12 - Math.floor(i / 6) * 21;
      const piece = svg("g", { class: "marker", "data-marker": m.marker, "data-label": m.label });
      const colour = MARKER_COLOURS[names.indexOf(m.marker) % MARKER_COLOURS.length];
      piece.append(svg("circle", { cx, cy, r: 9, fill: colour, stroke: "#222", "stroke-width": 1 }));
      const letter = svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "marker-letter" });
      letter.textContent = m.label.replace(/^player /, "").charAt(0).toUpperCase();
      piece.append(letter);
      const title = svg("title", {});
      title.textContent = m.label;
      piece.append(title);
      g.append(piece);
    });
  }

  function smallestGap(board) {
    let best = Infinity;
    for (const [a, b] of board.edges) {
      const s = board.spaces[a], t = board.spaces[b];
      best = Math.min(best, Math.hypot(s.x - t.x, s.y - t.y));
    }
    return best === Infinity ? 0.25 : best;
  }

  function wrap(text, width, most) {
    const words = text.split(/\s+/), lines = [];
    let line = "";
    for (const word of words) {
      if (line && (line + " " + word).length > width) { lines.push(line); line = word; }
      else line = line ? line + " " + word : word;
    }
    if (line) lines.push(line);
    if (lines.length > most) { lines.length = most; lines[most - 1] += "…"; }
    return lines;
  }

  // The history: every line told to this page's viewer, newest last.
  function drawHistory(list, lines) {
    const follow = list.parentNode && list.parentNode.scrollHeight - list.parentNode.scrollTop - list.parentNode.clientHeight < 40;
    if (list.childElementCount > lines.length) clear(list);
    for (let i = list.childElementCount; i < lines.length; i++) {
      const line = lines[i];
      list.append(el("li", { class: "event " + line.kind.replace(" ", "-") + (line.forced ? " forced" : ""), "data-step": line.step },
        line.text));  // a forced step says so in its text already
    }
    if (follow || list.childElementCount === lines.length) {
      const box = list.parentNode;
      if (box) box.scrollTop = box.scrollHeight;
    }
  }

  // The end: every player's score by category, who won, and every card shown.
  function drawEnd(section, end, hooks) {
    clear(section);
    section.hidden = false;
    const table = el("table", { class: "scores" });
    const head = el("tr", {}, el("th", { text: "player" }));
    for (const label of end.labels) head.append(el("th", { text: label }));
    head.append(el("th", { text: "total" }));
    table.append(el("thead", {}, head));
    const body = el("tbody");
    end.scores.forEach((score, p) => {
      let name = "player " + (p + 1);
      if (p === end.first_player) name += " (first)";
      if (end.teams) name += " (" + end.teams[p] + ")";
      if (end.winners.includes(p)) name += " winner";
      const row = el("tr", { "data-seat": p, class: end.winners.includes(p) ? "winner" : null }, el("th", { scope: "row", text: name }));
      for (const label of end.labels) row.append(el("td", { text: String(end.breakdown[p][label]) }));
      row.append(el("td", { class: "total", text: String(score) }));
      body.append(row);
    });
    table.append(body);
    section.append(el("h2", { text: "Final scores after " + end.turns + " turns" }), table, el("p", { class: "outcome", text: end.said }));
    const reveal = el("div", { class: "reveal" });
    drawTable(reveal, { table: end.reveal, boards: [] }, hooks || {}, { heading: "The end, every card shown" });
    section.append(reveal);
  }

  // A live connection that reconnects by itself, with growing pauses.
  function live(path, onView, onState) {
    let socket = null, wait = 250;
    function open() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      socket = new WebSocket(scheme + location.host + path);
      socket.addEventListener("open", () => { wait = 250; onState(true); });
      socket.addEventListener("message", (e) => onView(JSON.parse(e.data), true));
      socket.addEventListener("close", (e) => {
        onState(false, e.code);
        if (e.code === 4404) return;  // the link opens nothing: trying again will not help
        setTimeout(open, wait);
        wait = Math.min(wait * 2, 5000);
      });
    }
    open();
    return { close: () => socket && socket.close() };
  }

  async function send(url, body, raw) {
    const response = await fetch(url, {
      method: "POST", headers: { "content-type": "application/json" },
      body: raw ? body : JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({ error: "the server's answer was not readable" }));
    if (!response.ok) throw new Error(data.error || "refused (" + response.status + ")");
    return data;
  }

  // A newer view replaces an older one; a server started again starts a new count.
  function newer(view, shown) {
    return !shown || view.epoch !== shown.epoch || view.version >= shown.version;
  }

  return { el, clear, drawTable, drawBoard, drawHistory, drawEnd, live, send, newer, cardChip };
})();
