// The designer's page: the whole table, every decision with a way back to
// it, the branches left behind, the log, saves, loads and restarts.
"use strict";

(function () {
  const token = location.pathname.split("/").pop();
  const api = "/api/designer/" + token;
  const $ = (id) => document.getElementById(id);
  const el = Table.el;
  let view = null;
  let openBranch = null;  // the branch whose decisions are listed

  function render(next) {
    if (!Table.newer(next, view)) return;
    view = next;
    document.body.dataset.version = view.epoch + ":" + view.version;  // what is drawn, for scripts and tests
    document.title = "Designer — " + view.title;
    $("title").textContent = view.title + " — designer";
    $("where").textContent = "seed " + view.seed + ", " + view.players + " players, " + view.table.when;
    drawSetup();
    drawDecision();
    Table.drawTable($("table"), view, { look: () => {} }, { heading: "The whole table (every card shown)" });
    if (view.end) Table.drawEnd($("end"), view.end, {});
    else $("end").hidden = true;
    drawDecisions();
    drawBranches();
    Table.drawHistory($("log"), view.log);
    $("save").href = api + "/save";
  }

  function drawSetup() {
    const setup = Table.clear($("setup"));
    const sets = Object.entries(view.sets).map(([k, v]) => k + "=" + v).join(", ") || "none";
    for (const [term, value] of [["rules", view.rules], ["seed", String(view.seed)], ["players", String(view.players)],
                                 ["--set", sets]]) {
      setup.append(el("dt", { text: term }), el("dd", { text: value, "data-term": term }));
    }
    const seats = Table.clear($("seats"));
    for (const seat of view.seats) {
      const link = seat.link ? el("a", { href: seat.link, target: "_blank", rel: "noopener noreferrer", text: location.origin + seat.link }) : null;
      seats.append(el("li", { "data-seat": seat.seat }, seat.name + ": " + seat.who + (link ? " — " : ""), link));
    }
    if (view.hotseat_link) {
      seats.append(el("li", {}, "hot seat (every person's seat): ",
        el("a", { href: view.hotseat_link, target: "_blank", rel: "noopener noreferrer", text: location.origin + view.hotseat_link })));
    }
    const params = Table.clear($("params"));
    for (const [name, value] of Object.entries(view.params)) {
      const set = Object.prototype.hasOwnProperty.call(view.sets, name);
      params.append(el("tr", { class: set ? "set" : null }, el("th", { scope: "row", text: name }), el("td", { text: value + (set ? "  (--set)" : "") })));
    }
  }

  function drawDecision() {
    const box = Table.clear($("decision"));
    if (view.error) { box.append(el("p", { class: "error", text: "The game stopped: " + view.error })); return; }
    if (!view.decision) { box.append(el("p", { text: view.end ? view.end.said : "—" })); return; }
    const d = view.decision;
    const who = view.seats[d.player];
    box.append(el("p", { text: d.name + " (" + who.who + "): " + d.prompt }));
    const list = el("ol", { class: "plain" });
    for (const o of d.options) list.append(el("li", { "data-id": o.id }, o.number + ". " + o.label, el("code", { text: " " + o.id })));
    box.append(list);
    if ((d.unavailable || []).length) {
      const off = el("ul", { class: "plain unavailable" });
      for (const o of d.unavailable) off.append(el("li", { text: o.label + " (not now: " + o.reason + ")" }));
      box.append(off);
    }
  }

  function travelButton(branch, before, text) {
    return el("button", { type: "button", class: "small travel", "data-before": before, "data-branch": branch === null ? "" : branch,
                          onclick: () => act("/travel", { branch, before }) }, text);
  }

  function decisionItem(d, branch) {
    return el("li", { value: d.n, "data-n": d.n },
      el("span", { class: "where", text: "round " + d.round + ", turn " + d.turn + " — " }),
      "player " + (d.player + 1) + ": " + d.label + " ", travelButton(branch, d.n - 1, "back to before this"));
  }

  function drawDecisions() {
    const list = Table.clear($("decisions"));
    list.append(el("li", { value: 0, "data-n": 0 }, "the start of the game ", travelButton(null, 0, "back to the start")));
    for (const d of view.decisions) list.append(decisionItem(d, null));
    list.parentNode.scrollTop = list.parentNode.scrollHeight;
  }

  function drawBranches() {
    const list = Table.clear($("branches"));
    if (!view.branches.length) list.append(el("li", { class: "empty", text: "none yet: going back to a decision keeps the line left behind here" }));
    for (const branch of view.branches) {
      const last = branch.decisions[branch.decisions.length - 1];
      const item = el("li", { "data-branch": branch.index },
        "branch " + (branch.index + 1) + ": " + branch.decisions.length + " decisions" + (last ? ", the last: " + last.label : "") + " ",
        travelButton(branch.index, branch.decisions.length, "follow it to its end"), " ",
        el("button", { type: "button", class: "small", onclick: () => { openBranch = openBranch === branch.index ? null : branch.index; drawBranches(); } },
          openBranch === branch.index ? "hide its decisions" : "show its decisions"));
      if (openBranch === branch.index) {
        const steps = el("ol", { class: "steps" });
        for (const d of branch.decisions) steps.append(decisionItem(d, branch.index));
        item.append(steps);
      }
      list.append(item);
    }
  }

  async function act(path, body, raw) {
    $("message").textContent = "";
    try {
      render(await Table.send(api + path, body, raw));
    } catch (err) {
      $("message").textContent = err.message;
    }
  }

  $("restart").addEventListener("click", () => {
    const text = $("seed").value.trim();
    act("/restart", { seed: text === "" ? null : Number(text) });
  });

  $("load").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) await act("/load", await file.text(), true);
    e.target.value = "";
  });

  Table.live("/ws/designer/" + token, (next) => render(next), (open, code) => {
    $("live").textContent = open ? "live" : code === 4404 ? "this link opens no game" : "reconnecting…";
    $("live").className = "live " + (open ? "on" : "off");
  });
})();
