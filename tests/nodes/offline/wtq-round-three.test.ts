/**
 * Plans WTQ-like questions got wrong (docs/OFFLINE-BACKBONE.md, "Table order round three"): "the same X as A" —
 * the named row before "same" when a question word follows "as", a part of time ("the same year as A") of a
 * date or year column, counted ("how many … the same X as A"), the other side's values selecting the other rows,
 * the named value's own other rows left out; yes or no of two named rows' values ("is A's coach the same as
 * B's?"); "the next X after A" whose next row must hold a value the question names beside the position ("the
 * next Green mayor after A", "previous to A, which Green mayor …"); the difference in score of one game whose
 * result cell holds both sides ("W 9–4"); "next to A": another column's cell beside A's, or A aside before a
 * superlative; how long a named row's span of years ("1996–99") lasted; the rows whose two named columns agree
 * ("the same mark in gown as interview").
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RawTable } from "../../../indexing/types.js";
import { groundedColumn, openTables } from "./fixtures.js";

const tables: RawTable[] = [
  {
    // Harbour ferries and when each was launched.
    id: "ferries",
    file: "ferries.csv",
    header: ["Name", "Yard", "Launched", "Berths"],
    rows: [
      ["Osprey", "Aberdeen Marine", "14 March 1961", "120"],
      ["Gannet", "Leith Docks", "2 June 1963", "95"],
      ["Kestrel", "Aberdeen Marine", "30 October 1961", "110"],
      ["Merlin", "Clyde Works", "9 May 1964", "95"],
      ["Fulmar", "Leith Docks", "21 July 1963", "140"],
    ],
  },
  {
    // A rowing squad: each rower's nation, coach and the year they joined.
    id: "rowers",
    file: "rowers.csv",
    header: ["Rower", "Nation", "Coach", "Joined"],
    rows: [
      ["Dana Moore", "Norway", "Ilse Berg", "2014"],
      ["Tomas Vik", "Norway", "Ilse Berg", "2016"],
      ["Ruth Hale", "Denmark", "Ilse Berg", "2014"],
      ["Pia Lund", "Norway", "Ilse Berg", "2018"],
      ["Ola Strand", "Denmark", "Kari Holm", "2016"],
      ["Anja Roos", "Norway", "Kari Holm", "2014"],
    ],
  },
  {
    // A league's clubs; one club is listed twice (two seasons).
    id: "clubs",
    file: "clubs.csv",
    header: ["Club", "Season", "Wins", "Total"],
    rows: [
      ["Rovers", "2019", "12", "30"],
      ["Harriers", "2019", "9", "30"],
      ["Rovers", "2020", "12", "27"],
      ["Athletic", "2020", "12", "31"],
      ["Wanderers", "2020", "7", "27"],
    ],
  },
  {
    // A town's mayors in office order, each with a party.
    id: "mayors",
    file: "mayors.csv",
    header: ["Mayor", "Party", "Took office"],
    rows: [
      ["Ewan Lisle", "Green", "1990"],
      ["Nora Pike", "Labour", "1994"],
      ["Hugh Dunn", "Liberal", "1998"],
      ["Iris Moss", "Green", "2002"],
      ["Carl Venn", "Labour", "2006"],
      ["Beth Quail", "Green", "2010"],
    ],
  },
  {
    // A curling club's league games: each result cell holds both sides' scores.
    id: "games",
    file: "games.csv",
    header: ["Week", "Date", "Opponent", "Result"],
    rows: [
      ["1", "October 4", "Kelso", "W 9–4"],
      ["2", "October 11", "Hawick", "L 2–8"],
      ["3", "October 18", "Melrose", "W 6–5"],
      ["4", "October 25", "Peebles", "L 3–3"],
    ],
  },
  {
    // A boat's crew list: each rower's seat, role and races rowed.
    id: "crew",
    file: "crew.csv",
    header: ["Seat", "Rower", "Role", "Races"],
    rows: [
      ["1", "Tomas Berg", "Bow", "14"],
      ["2", "Lars Ekman", "Engine", "22"],
      ["3", "Per Dahl", "Engine", "9"],
      ["4", "Olof Lind", "Stroke", "31"],
    ],
  },
  {
    // A shinty club's coaches and the years each spell ran.
    id: "coaches",
    file: "coaches.csv",
    header: ["Coach", "Spell", "Trophies"],
    rows: [
      ["Ruaridh Mackay", "1981–2007", "12"],
      ["Alasdair Bain", "2007–09", "1"],
      ["Fergus Orr", "2009–2012", "0"],
      ["Alasdair Bain", "2012–2016", "3"],
    ],
  },
  {
    // A judged show: each contestant's marks in three rounds.
    id: "show",
    file: "show.csv",
    header: ["Contestant", "Talent", "Gown", "Interview"],
    rows: [
      ["Mara Quinn", "8.1", "7.9", "8.4"],
      ["Isla Fenn", "7.5", "8.2", "8.2"],
      ["Tova Reyes", "9.0", "8.8", "8.5"],
      ["June Ashby", "7.7", "7.7", "8.0"],
    ],
  },
];

const fx = openTables(tables);
afterAll(() => fx.close());
const answer = (question: string, table: string) => groundedColumn(fx, question, table);

describe("the same X as A", () => {
  it("a part of time compares that part of the date column", () => {
    expect(answer("which other ferry went afloat in the same year as osprey?", "ferries")).toEqual(["Kestrel"]);
    expect(answer("name a ferry launched the same year as gannet.", "ferries")).toEqual(["Fulmar"]);
  });

  it("the named row before 'same' when a question word follows 'as'", () => {
    expect(answer("ola strand had the same coach as which other rower?", "rowers")).toEqual(["Anja Roos"]);
    expect(answer("tomas vik joined the squad the same year as which rower?", "rowers")).toEqual(["Ola Strand"]);
  });

  it("counted when the question asks how many", () => {
    expect(answer("how many rowers have the same coach as pia lund?", "rowers")).toEqual(["3"]);
    expect(answer("dana moore has the same coach as how many other rowers?", "rowers")).toEqual(["3"]);
  });

  it("the other side's values select the other rows; a second named row is no answer", () => {
    expect(answer("which other rower from denmark joined the same year as dana moore?", "rowers")).toEqual([
      "Ruth Hale",
    ]);
    expect(answer("dana moore and tomas vik had the same coach as which rower?", "rowers")).toEqual([
      "Ruth Hale",
      "Pia Lund",
    ]);
  });

  it("the named value's own other rows are left out, and a lone 'total' names the Total column", () => {
    expect(answer("name a club with the same count of wins as rovers.", "clubs")).toEqual(["Athletic"]);
    expect(answer("name a club with the same count of total points as wanderers.", "clubs")).toEqual(["Rovers"]);
  });
});

describe("the same X as Y of one row", () => {
  it("with no named row, the rows whose two named columns hold the same value", () => {
    expect(answer("which contestant got the same mark in gown as interview?", "show")).toEqual(["Isla Fenn"]);
    expect(answer("how many contestants scored the same marks for talent as gown?", "show")).toEqual(["1"]);
  });
});

describe("yes or no: the same X", () => {
  it("compares the two named rows' values of the named column", () => {
    expect(answer("does ola strand have the same coach as anja roos?", "rowers")).toEqual(["yes"]);
    expect(answer("is the coach of dana moore the same as ola strand?", "rowers")).toEqual(["no"]);
    expect(answer("was kestrel launched the same year as osprey?", "ferries")).toEqual(["yes"]);
  });

  it("'any' asks whether another row shares the named row's value", () => {
    expect(answer("does any rower have the same coach as ola strand?", "rowers")).toEqual(["yes"]);
    expect(answer("does any ferry have the same yard as merlin?", "ferries")).toEqual(["no"]);
  });
});

describe("the next row that holds a named value", () => {
  it("the value before the position word selects the next row; the named row is the one after it", () => {
    expect(answer("who was the next mayor from the green party after ewan lisle?", "mayors")).toEqual(["Iris Moss"]);
    expect(answer("which labour mayor came before beth quail?", "mayors")).toEqual(["Carl Venn"]);
  });

  it("a question that opens with the position: the values of its main clause select the row", () => {
    expect(answer("previous to carl venn, who was the mayor from the green party?", "mayors")).toEqual(["Iris Moss"]);
    expect(answer("previous to carl venn, which mayor of the labour party took office?", "mayors")).toEqual([
      "Nora Pike",
    ]);
  });

  it("values right after the named row speak of it", () => {
    expect(answer("which mayor took office after iris moss in 2002?", "mayors")).toEqual(["Carl Venn"]);
  });
});

describe("the difference in score of one row", () => {
  it("is its score cell's two sides apart", () => {
    expect(answer("for week 2, give me the difference in score.", "games")).toEqual(["6"]);
    expect(answer("how large a score difference did the melrose game have?", "games")).toEqual(["1"]);
    expect(answer("october 25: the difference of the match's scores?", "games")).toEqual(["0"]);
  });
});

describe("next to A", () => {
  it("another column's cell beside A's is in A's row; a value of A's own column is the neighbouring row", () => {
    expect(answer("what role is written next to per dahl?", "crew")).toEqual(["Engine"]);
    expect(answer("which rower is next to lars ekman?", "crew")).toEqual(["Per Dahl"]);
  });

  it("before a superlative, it sets A aside", () => {
    expect(answer("next to olof lind, which rower rowed the most races?", "crew")).toEqual(["Lars Ekman"]);
  });
});

describe("how long a span of years lasted", () => {
  it("is the end year minus the start year, added up over the named rows", () => {
    expect(answer("how long did ruaridh mackay coach the club?", "coaches")).toEqual(["26 years"]);
    expect(answer("how many years was fergus orr in charge?", "coaches")).toEqual(["3"]);
    expect(answer("in all, how long did alasdair bain coach?", "coaches")).toEqual(["6 years"]);
  });
});
