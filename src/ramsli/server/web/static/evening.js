/* ramsli web: the pages of a club evening (issue 34), an ES module that picks the page the server
   asked for (R.page.mode) from the evening's modules (evening-*.js, one page each):
   "evening" the standing link /e/{id}, "director", "tv", "print", and "new" (the form). */
import { P, loadStyle } from "./evening-common.js";
import { eveningPage } from "./evening-page.js";
import { directorPage } from "./evening-director.js";
import { tvPage } from "./evening-tv.js";
import { printPage } from "./evening-print.js";
import { newPage } from "./evening-new.js";

const R = window.R;
R.applySettings();
loadStyle();

const PAGES = { evening: eveningPage, director: directorPage, tv: tvPage, print: printPage, new: newPage };
document.body.classList.add("ev-" + P.mode);
(PAGES[P.mode] || eveningPage)();
