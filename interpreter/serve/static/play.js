// A seat's page: its table, its decisions as buttons, what it was told, the
// end. The link's secret is the last part of the address.
"use strict";

(function () {
  const token = location.pathname.split("/").pop();
  const api = "/api/play/" + token;
  const $ = (id) => document.getElementById(id);
  let view = null;
  let shownSeat = null;  // hot-seat: whose hand the screen was last handed to

  const hooks = { pick: choose, mark: markOptions, look };

  function render(next) {
    if (!Table.newer(next, view)) return;
    view = next;
    document.body.dataset.version = view.epoch + ":" + view.version;  // what is drawn, for scripts and tests
    document.title = view.table.title + (view.you !== null ? " — player " + (view.you + 1) : "");
    $("title").textContent = view.table.title;
    $("where").textContent = view.table.when;
    $("you").textContent = view.hotseat ? "hot seat" + (view.you !== null ? ": player " + (view.you + 1) : "")
      : "you are player " + (view.you + 1);
    if (view.hotseat && view.you !== null && view.you !== shownSeat) {
      cover(view.you);
      return;
    }
    $("cover").hidden = true;
    $("main").hidden = false;
    Table.drawTable($("table"), view, hooks, { you: view.you });
    drawDecision();
    Table.drawHistory($("history"), view.history);
    if (view.end) Table.drawEnd($("end"), view.end, { look });
    else $("end").hidden = true;
  }

  // Hot seat: the screen is hidden until the next person says they hold it.
  function cover(seat) {
    Table.clear($("table"));
    Table.clear($("options"));
    $("main").hidden = true;
    $("cover-text").textContent = "Player " + (seat + 1) + "'s turn. Hand the screen to player " + (seat + 1) + ".";
    $("cover-go").textContent = "I am player " + (seat + 1) + ": show my cards";
    $("cover").hidden = false;
    $("cover-go").focus();
  }

  $("cover-go").addEventListener("click", () => {
    shownSeat = view.you;
    const shown = view;
    view = null;
    render(shown);
  });

  function drawDecision() {
    const options = Table.clear($("options"));
    const status = $("status");
    if (view.error) {
      status.textContent = "The game stopped: " + view.error;
    } else if (view.decision) {
      status.textContent = "Your decision: " + view.decision.prompt;
      for (const option of view.decision.options) {
        options.append(Table.el("li", {},
          Table.el("button", { type: "button", class: "option", "data-id": option.id, "data-number": option.number,
                               onclick: () => choose(option.number) },
            Table.el("span", { class: "number", text: option.number + ". " }), option.label)));
      }
      for (const option of view.decision.unavailable || []) {  // shown, never chosen (not a button.option)
        options.append(Table.el("li", {},
          Table.el("button", { type: "button", class: "unavailable", disabled: true, title: "not now: " + option.reason },
            option.label, Table.el("span", { class: "reason", text: " (not now: " + option.reason + ")" }))));
      }
    } else if (view.end) {
      status.textContent = "The game is over: " + view.end.said;
    } else if (view.waiting_for) {
      const seat = view.seats[view.waiting_for.player];
      status.textContent = "Waiting for " + view.waiting_for.name + (seat && seat.who !== "person" ? " (" + seat.who + ")" : "") + "…";
    }
  }

  async function choose(number) {
    const option = view && view.decision && view.decision.options.find((o) => o.number === number);
    if (!option) return;
    $("message").textContent = "";
    for (const button of document.querySelectorAll("button.option")) button.disabled = true;
    try {
      render(await Table.send(api + "/act", { option: option.id, version: view.version }));
    } catch (err) {
      $("message").textContent = err.message;
      refresh();
    }
  }

  function markOptions(numbers) {
    for (const button of document.querySelectorAll("button.option")) {
      button.classList.toggle("marked", numbers.includes(Number(button.dataset.number)));
    }
    $("message").textContent = "Several options name this card: " + numbers.join(", ") + ".";
  }

  async function look(name) {
    const response = await fetch(api + "/cards?name=" + encodeURIComponent(name));
    const data = await response.json();
    const box = Table.clear($("card-details"));
    if (!response.ok) { box.textContent = data.error; }
    for (const card of data.cards || []) {
      const list = Table.el("dl");
      for (const field of card.fields) {
        list.append(Table.el("dt", { text: field.name }), Table.el("dd", { text: field.value + (field.words ? " (" + field.words + ")" : "") }));
      }
      box.append(Table.el("h3", { text: card.name + " (" + card.kind + ")" }), list);
    }
    $("card-panel").hidden = false;
  }

  $("card-close").addEventListener("click", () => { $("card-panel").hidden = true; });

  // Typing an option's number chooses it, as at the terminal.
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || !view || !view.decision || !$("cover").hidden) return;
    const n = Number(e.key);
    const numbers = view.decision.options.map((o) => o.number);
    if (numbers.includes(n) && Math.max(...numbers) <= 9) choose(n);
  });

  async function refresh() {
    const response = await fetch(api);
    if (response.ok) { view = null; render(await response.json()); }
  }

  Table.live("/ws/play/" + token, (next) => render(next), (open, code) => {
    $("live").textContent = open ? "live" : code === 4404 ? "this link opens no game" : "reconnecting…";
    $("live").className = "live " + (open ? "on" : "off");
  });
})();
