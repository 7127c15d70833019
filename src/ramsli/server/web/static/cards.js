/* ramsli web: playing cards drawn as SVG by the project itself (no images from elsewhere).
   French suits (♠♥♦♣, red and black or four colours) and German-suited pictures (D-1):
   leaves (Grün) for spades, hearts (Herz), bells (Schellen) for diamonds, acorns (Eichel) for clubs;
   Daus, Ober, Unter for ace, queen, jack. Cards are in R1.6 text notation: AS, TH, 7C, X1 (big joker), X2. */
"use strict";
(function () {
  const R = window.R;
  const _ = R._,
    pgettext = R.pgettext;
  const NS = "http://www.w3.org/2000/svg";

  const PIP = {
    H: '<path d="M50 90 C22 68 4 48 13 28 C22 10 44 12 50 30 C56 12 78 10 87 28 C96 48 78 68 50 90Z"/>',
    D: '<path d="M50 6 L86 50 L50 94 L14 50Z"/>',
    S: '<path d="M50 6 C62 30 94 44 87 66 C82 80 62 80 55 68 C56 80 60 88 68 94 L32 94 C40 88 44 80 45 68 C38 80 18 80 13 66 C6 44 38 30 50 6Z"/>',
    C:
      '<circle cx="50" cy="28" r="19"/><circle cx="27" cy="58" r="19"/><circle cx="73" cy="58" r="19"/>' +
      '<path d="M45 52 C45 74 40 86 32 94 L68 94 C60 86 55 74 55 52Z"/>',
  };
  const GERMAN_PIP = {
    S:
      '<path d="M50 4 C82 22 88 60 50 90 C12 60 18 22 50 4Z"/><path d="M50 12 L50 97" stroke="#173f19" stroke-width="5" fill="none"/>' +
      '<path d="M50 40 L33 28 M50 56 L30 44 M50 40 L67 28 M50 56 L70 44" stroke="#173f19" stroke-width="3" fill="none"/>',
    H: PIP.H,
    D:
      '<circle cx="50" cy="56" r="34"/><path d="M17 50 L83 50 M17 60 L83 60" stroke="#7a5200" stroke-width="4"/>' +
      '<circle cx="50" cy="78" r="6" fill="#3b2700"/><path d="M50 22 L50 8" stroke="#7a5200" stroke-width="7"/>' +
      '<circle cx="50" cy="8" r="6" fill="none" stroke="#7a5200" stroke-width="4"/>',
    C:
      '<ellipse cx="50" cy="64" rx="24" ry="30"/><path d="M20 46 C20 22 80 22 80 46 Z" fill="#4a2a0c"/>' +
      '<path d="M30 32 L40 44 M42 28 L52 44 M56 28 L64 44 M68 32 L74 42" stroke="#8a6a3c" stroke-width="3"/>' +
      '<path d="M50 24 L50 8" stroke="#4a2a0c" stroke-width="7"/>',
  };
  const COLOUR = {
    two: { S: "#111111", H: "#c8102e", D: "#c8102e", C: "#111111" },
    four: { S: "#111111", H: "#c8102e", D: "#1f5fbf", C: "#17803a" },
    german: { S: "#2e7d32", H: "#c8102e", D: "#d59a00", C: "#8a5a24" },
  };
  const LAYOUT = {
    2: [
      [30, 18],
      [30, 66],
    ],
    3: [
      [30, 18],
      [30, 42],
      [30, 66],
    ],
    4: [
      [17, 18],
      [43, 18],
      [17, 66],
      [43, 66],
    ],
    5: [
      [17, 18],
      [43, 18],
      [30, 42],
      [17, 66],
      [43, 66],
    ],
    6: [
      [17, 18],
      [43, 18],
      [17, 42],
      [43, 42],
      [17, 66],
      [43, 66],
    ],
    7: [
      [17, 18],
      [43, 18],
      [30, 30],
      [17, 42],
      [43, 42],
      [17, 66],
      [43, 66],
    ],
    8: [
      [17, 18],
      [43, 18],
      [30, 30],
      [17, 42],
      [43, 42],
      [30, 54],
      [17, 66],
      [43, 66],
    ],
    9: [
      [17, 18],
      [43, 18],
      [17, 34],
      [43, 34],
      [30, 42],
      [17, 50],
      [43, 50],
      [17, 66],
      [43, 66],
    ],
    10: [
      [17, 18],
      [43, 18],
      [30, 26],
      [17, 34],
      [43, 34],
      [17, 50],
      [43, 50],
      [30, 58],
      [17, 66],
      [43, 66],
    ],
  };
  const RANK_VALUE = { A: 14, K: 13, Q: 12, J: 11, T: 10 };

  function parse(code) {
    if (code === "X1" || code === "X2")
      return { joker: true, big: code === "X1", rank: code === "X1" ? 16 : 15, suit: null };
    const r = code.slice(0, -1),
      s = code.slice(-1);
    return { joker: false, rank: RANK_VALUE[r] || parseInt(r, 10), r: r, suit: s };
  }
  R.parseCard = parse;

  function german() {
    return !!R.settings.german;
  }
  function palette() {
    return german() ? COLOUR.german : R.settings.fourColour ? COLOUR.four : COLOUR.two;
  }

  /* the rank letter in the page's language (de: B for Bube, D for Dame; nl: H V B; it: R D F) */
  function rankLetter(c) {
    if (german()) return { 14: "D", 13: "K", 12: "O", 11: "U" }[c.rank] || String(c.rank);
    if (c.rank === 14) return pgettext("rank", "A");
    if (c.rank === 13) return pgettext("rank", "K");
    if (c.rank === 12) return pgettext("rank", "Q");
    if (c.rank === 11) return pgettext("rank", "J");
    return String(c.rank);
  }
  R.rankLetter = rankLetter;

  function suitName(s) {
    if (german()) return { S: _("leaves"), H: _("hearts"), D: _("bells"), C: _("acorns") }[s];
    return { S: _("spades"), H: _("hearts"), D: _("diamonds"), C: _("clubs") }[s];
  }
  R.suitName = suitName;
  R.suitSymbol = function (s) {
    return german() ? suitName(s) : { S: "♠", H: "♥", D: "♦", C: "♣" }[s];
  };
  /* the suit's pip as a small SVG in the colours of the cards shown (German suits: their own pictures) */
  R.suitPipSVG = function (s) {
    const wrap = document.createElement("span");
    wrap.className = "suit-pip";
    wrap.setAttribute("aria-hidden", "true");
    wrap.innerHTML = `<svg viewBox="0 0 100 100" width="1.3em" height="1.3em">${pip(s, 50, 50, 96, palette()[s])}</svg>`;
    return wrap;
  };

  /* the accessible name of a card: "queen of hearts", "Dame Herz" ... */
  R.cardName = function (code) {
    const c = parse(code);
    if (c.joker) return c.big ? _("big joker") : _("little joker");
    let rank;
    if (german()) rank = { 14: _("Daus"), 13: _("king"), 12: _("Ober"), 11: _("Unter") }[c.rank];
    if (!rank)
      rank = {
        14: _("ace"),
        13: _("king"),
        12: _("queen"),
        11: _("jack"),
        10: _("ten"),
        9: _("nine"),
        8: _("eight"),
        7: _("seven"),
        6: _("six"),
        5: _("five"),
        4: _("four"),
        3: _("three"),
        2: _("two"),
      }[c.rank];
    return _("{rank} of {suit}", { rank: rank, suit: suitName(c.suit) });
  };

  function pip(suit, x, y, size, colour, flip) {
    const p = (german() ? GERMAN_PIP : PIP)[suit];
    const k = size / 100;
    const rot = flip ? ` rotate(180 50 50)` : "";
    return `<g transform="translate(${x - size / 2} ${y - size / 2}) scale(${k})${rot}" fill="${colour}">${p}</g>`;
  }

  function face(c, col) {
    /* court cards: a framed figure with the rank letter and a crown (K), a veil (Q/Ober) or a cap (J/Unter) */
    const L = rankLetter(c);
    const hat =
      c.rank === 13
        ? '<path d="M20 30 L24 18 L30 26 L36 16 L40 26 L46 18 L40 32 Z" fill="#e0b000" stroke="#6b5000" stroke-width="0.8"/>'
        : c.rank === 12
          ? '<path d="M21 32 C22 18 38 18 39 32 Z" fill="#8d3b72" stroke="#3f1330" stroke-width="0.8"/><circle cx="30" cy="18" r="2" fill="#e0b000"/>'
          : '<path d="M22 30 C22 22 38 22 38 30 Z" fill="#2f5d9a" stroke="#12284a" stroke-width="0.8"/><path d="M38 26 L44 22" stroke="#c8102e" stroke-width="2"/>';
    return (
      `<rect x="11" y="11" width="38" height="62" rx="3" fill="#fbf4e2" stroke="${col}" stroke-width="1.2"/>` +
      hat +
      `<circle cx="30" cy="38" r="7" fill="#f2d2b0" stroke="#6b4a2a" stroke-width="0.8"/>` +
      `<path d="M17 72 C17 52 43 52 43 72 Z" fill="${col}" opacity="0.85"/>` +
      pip(c.suit, 30, 60, 12, "#fff") +
      `<text x="30" y="70.5" font-size="7" text-anchor="middle" font-family="Liberation Sans, Arial, sans-serif" font-weight="700" fill="#fff">${L}</text>`
    );
  }

  /* an <svg> element of a card face (code) or a card back (code null) */
  R.cardSVG = function (code) {
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 60 84");
    svg.setAttribute("class", "card-svg");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    let body;
    if (!code) {
      body =
        '<rect x="1" y="1" width="58" height="82" rx="5" fill="#fff" stroke="#999"/>' +
        '<rect x="4.5" y="4.5" width="51" height="75" rx="3" fill="#7b1d2c"/>' +
        '<path d="M4.5 14 L20 4.5 M4.5 30 L45 4.5 M4.5 46 L55.5 14 M4.5 62 L55.5 30 M4.5 78 L55.5 46 M20 79.5 L55.5 62 M45 79.5 L55.5 72' +
        ' M40 4.5 L55.5 14 M15 4.5 L55.5 30 M4.5 14 L55.5 46 M4.5 30 L55.5 62 M4.5 46 L55.5 78 M4.5 62 L32 79.5" stroke="#b8495b" stroke-width="1.2"/>' +
        '<circle cx="30" cy="42" r="9" fill="#7b1d2c" stroke="#e8c56a" stroke-width="1.5"/><text x="30" y="46" font-size="11" text-anchor="middle" fill="#e8c56a" font-family="Liberation Serif, serif" font-weight="700">R</text>';
    } else {
      const c = parse(code);
      body = '<rect x="1" y="1" width="58" height="82" rx="5" fill="#fffdf8" stroke="#8a8a8a"/>';
      if (c.joker) {
        const jc = c.big ? "#c8102e" : "#111";
        body +=
          `<text x="6" y="14" font-size="9" font-family="Liberation Sans, Arial, sans-serif" font-weight="700" fill="${jc}">★</text>` +
          `<text x="30" y="50" font-size="26" text-anchor="middle" fill="${jc}">★</text>` +
          `<text x="30" y="70" font-size="7" text-anchor="middle" font-family="Liberation Sans, Arial, sans-serif" fill="${jc}">${c.big ? "JOKER +" : "JOKER"}</text>`;
      } else {
        const col = palette()[c.suit];
        const L = rankLetter(c);
        const idx =
          `<text x="3.5" y="12.5" font-size="${L.length > 1 ? 9 : 10.5}" font-family="Liberation Sans, Arial, sans-serif" font-weight="700" fill="${col}">${L}</text>` +
          pip(c.suit, 8, 20, 8, col);
        body += idx + `<g transform="rotate(180 30 42)">${idx}</g>`;
        if (c.rank === 14) body += pip(c.suit, 30, 42, german() ? 34 : 28, col);
        else if (c.rank >= 11) body += face(c, col);
        else for (const [x, y] of LAYOUT[c.rank]) body += pip(c.suit, x, y, 11, col, y > 44);
      }
    }
    svg.innerHTML = body;
    return svg;
  };

  /* sort a hand by suit with the trumps together (first), ranks high to low; jokers with the trumps */
  R.sortHand = function (codes, trump) {
    const order = ["S", "H", "C", "D"]; // alternate colours
    const key = (code) => {
      const c = parse(code);
      if (c.joker) return [0, -c.rank];
      if (c.suit === trump) return [1, -c.rank];
      return [2 + order.indexOf(c.suit), -c.rank];
    };
    return codes.slice().sort((a, b) => {
      const ka = key(a),
        kb = key(b);
      return ka[0] - kb[0] || ka[1] - kb[1];
    });
  };
})();
