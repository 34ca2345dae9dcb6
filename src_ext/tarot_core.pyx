# cython: language_level=3
"""French Tarot card-play core: bitboards, legal moves, tricks, counting, random
playouts and the exact double-dummy search (rules: docs/rules/tarot.md, sections
2 and 8-11).

Card ids are the deck indices of ``solver.cards.TAROT_DECK``: ``T1..T21`` = 0..20,
``EX`` = 21, suit cards 22 + 14*suit + rank (ranks 1..10 J N Q K ascending). A card
set is two 64-bit words: word 0 = trumps and the Excuse (bits 0..21, i.e. the deck
mask's low 22 bits), word 1 = the four suits (the deck mask shifted right by 22).
Within every suit (trumps included) a higher bit is a stronger card, so "cards above
X" is a mask operation. Points are doubled (half points are integers).

This module never imports the Python game modules: the face ``solver.core.tarot``
validates a position and hands it over as plain integers and masks.

Full-deal search (issue 23), kept and measured (made/fail probe, 20 4p positions
reached by the heuristic player from benchmarks/deals/tarot4_play.txt, median nodes,
before -> after; benchmarks/dd_tarot.py has the full tables):

* objective ``margin`` (E = P - R(B)): made/fail is one probe at 0 instead of T >= 1
  (same tree where no petit-au-bout or chelem term decides; it is also what "made"
  means);
* verified table keys: a second, independent 64-bit hash (``check``) stored and
  compared beside the key (a wrong value now needs two 64-bit collisions at once);
  entries 24 -> 32 bytes, two a cache line; nodes unchanged;
* points-aware merging of runs (``merge2``): 10 left 14.3k -> 13.0k, 12 left
  345k -> 307k;
* sure points in ``value_bounds``: the Excuse to its owner's side (``sure_ex``), the
  master trumps' tricks at n points each (``sure_trumps``), the leader's sure lead of
  a plain-suit master (``sure_lead``). All together: 8 left 1,739 -> 464 (x1.6
  median ratio), 10 left 14.3k -> 8.3k (x2.4), 11 left 57.8k -> 19.6k (x2.4), 12 left
  345k -> 203k (x2.1).
* found on the way: the old merging took T1 and T21 for one card when no trump
  between them was live (both worth 4.5): not the same card for petit au bout.
  T1 and the Excuse are never merged now.

* partition search (``partition``; DDS's winning ranks for a points game, see the
  class TarotCore's ``search``): a result holds for every position differing only in
  low cards below the ranks that decided it, stored for the exact position and its
  class. Made/fail, 4p, 10 played deals: median node ratio 1.46 at 11 left, 1.63 at
  12, 2.0 at 13, 1.6 at 14 (9 of 10 finish within 20M nodes against 7 of 10); see
  docs/ENGINE.md for what was tried beside it. A cut reports only a value its marks
  prove for the whole class (``bounds_rel`` returns the plain bound when that alone
  cuts: the sharper one read ranks it did not mark, and was stored for positions where
  it fails; twelfth session, found by an écart simulation's line and by fuzzing).
* margin bounds stored as E - P0 (valid at any points taken), the objective in the
  table keys (switching objectives keeps the table).
* stronger sure facts in ``value_bounds`` (``sure_match``, ``sure_won``,
  ``sure_petit``): trumps no opposing trump can beat are sure tricks (a matching, not
  only the masters), no Excuse condition for a side that has won a trick, the Petit
  safe when the other side has no trump. Made/fail median node ratio 1.18 / 1.24 /
  1.26 / 1.38 / 1.71 at 10 / 11 / 12 / 13 / 14 tricks left (4p), 1.0-1.14 (3p, 5p).

* relaxed games (``set_relax``): the plain-suit pips have no rank and the defence
  (R_D) or the attack (R_A) picks the winner of a trick whose best card of the led
  suit is a pip; the real winner is one of the choices, so R_D <= value <= R_A. A
  hand's pips of a suit are then one card and the table key holds their counts (no
  merge2 there: it reads the pips' ranks). Made in R_D is made:
  ``solver.dd.tarot._made_probe`` asks R_D first. 4p made/fail at 14 left: every made
  contract was made in R_D (8 of 8), 2.8x fewer nodes over the 10 positions
  (benchmarks/dd_tarot.py --baseline no-relax).
  Partition search inside them (``relax_part``, off): every pip free, classes over
  the low trumps; sound (class hits verified), but x1.01 / 1.07 / 1.02 fewer nodes
  (median per position, 4p made/fail at 12 / 13 / 14 left) at ~1.4x the time a node.

* (b) asked in R_D first (``solver.dd.tarot._value_relaxed_first``; ``bound``, a
  fail-soft probe): each bisection probe of the exact T goes to a second core kept
  in R_D (R_D <= T, so a probe that holds there holds), else to the real game; R_D's
  own ceiling skips it once a probe is above it. 4p, 10 played deals, (a) then (b):
  median node ratio per position 0.80 / 0.89 / 0.95 / 0.98 at 10 / 11 / 12 / 13
  tricks left but 1.0-3.4 at 14, where the made-type probes dominate; at 13 left 7 of
  10 finish within 3e7 nodes against 5 (benchmarks/RESULTS.md). Kept for the large
  positions the issue is about. (c) the same, each card's first probe at (b)'s value:
  per position 0.98 / 1.05 / 1.14 at 11 / 12 / 13 left (median nodes at 12 left
  12.1M -> 6.9M).

* R_DT (``set_relax("defence-trumps")``, 2026-12-03): R_D with the defence's low
  trumps unranked between the attack's trumps (trump_class_bounds, trump_ties,
  relaxed_overtrump, canonical_trumps); R_DT <= R_D. Asked first for (a) and kept for
  (b): 4p made/fail median per-position node ratio 1.07 / 1.02 at 14 / 15 left (the
  classes are short while the attack holds most trumps).

* the attack's leads ordered by the opponents' answers (``mobility``, 2026-12-03):
  a made proof takes the first attack card that succeeds, and the proofs of the cards
  that succeed differ by 2-10x (at 14 left the old order's T21 lead, which frees
  every defender's trumps, took 1.2M nodes where T14, which forces overtrumps, took
  0.19M). The score of a lead now subtracts 4 log2 of the product of the opponents'
  answers in the trick (reply_choices: pips and R_DT classes one answer each), which
  also puts the Excuse lead last. Made/fail in R_DT, per-position node ratio
  (geometric mean over 10-20 positions): 1.48 at 14 left, 1.5 at 16 (4p), 1.67 in the
  real game at 13 left, 1.64 (5p, 13 left), 1.2 (3p, 20 left); single positions
  0.5-26. The same for the defence's leads (fail proofs): x0.98, not kept; the
  attack's follows too: x1.00; weights 2 and 3 on the branching: x0.99. A one-trick
  lookahead instead (each attack lead from 8 or 11 tricks left played out against
  every merged answer, ordered by the trick ends value_bounds leave open): x0.65 /
  0.69 (it prefers leads the defence wins), and as a filter of leads the bounds
  refute at once: x1.00; reverted. The root's best card is still 2-4x cheaper than
  the one mobility picks on half the 15-left positions (usually a middle trump that
  forces the overtrumps), so a better estimate of a proof's size would pay.

* R_DV (``set_relax("defence-void")``, seventh session): R_DT where the defence also
  picks which of its seats takes a trick without trumps that no attack seat followed
  (R_DV <= R_DT), so the defence's cards of a suit the attack is void in have no rank:
  a defender gives only its poorest card of such a suit to a trick the attack surely
  takes (the ruffs of the suits the taker discarded, the defenders' discards under
  his trumps). Asked first for (a) and kept for (b) (``solver.dd.tarot``,
  ``relax_void``). 4p (a), per-position node ratio median / geometric mean: 1.06 / 1.2
  at 13 left, 1.42 / 1.37 at 15, 1.58 / 1.48 at 16 (median nodes 16.0M -> 8.3M, 8 of
  10 within 3e7 against 7). Its failed proofs are far cheaper too (the defence's
  extra choice refutes sooner): R_DT probes 5.3M -> 3k nodes on one 15-left position.
  Then the tricks the attack must take by ruffing (``attack_ruffs``: an attack seat
  still to play is void in the led suit, holds no Excuse, and its lowest trump beats
  every trump the defence could add): the defenders before it, and the leader, give
  their poorest card of such a suit too. R_DV probes, geometric mean of the
  per-position node ratio: 4p 1.16 / 1.28 at 15 / 16 left, 3p 1.19 (19 left), 5p 1.02
  (13 left). And the other way round, a defender's richest card of such a suit to a
  trick the defence surely takes (no attack seat still to play) where its choice
  cannot change who takes it: 4p 1.13 / 1.26 / 1.33 at 14 / 15 / 16 left, 3p 1.03,
  5p 1.00.
* merge2 in the relaxed games (``merge2_relaxed``, 2026-12-03 seventh session): it
  had been off there wholesale (it reads ranks and the pips have none); a run now
  stops at the pips and a trick a pip is winning is never sure. R_DT made/fail, 4p,
  per-position node ratio (geometric mean): 1.11 / 1.14 / 1.11 at 13 / 14 / 15 left
  (20 / 20 / 10 positions).

Measured and dropped, seventh session: R_DL, the defence playing its plain-suit
cards as if lower (a relaxation R_DL <= R_DT under which a defender's higher card is
never worse to hold, so to a trick the attack surely takes only its poorest card of
each stretch without attack cards is searched; the price is a winner chosen among the
defenders at tricks they win). Sound (brute force), equal to R_DT on every endgame
tried, but (a) x1.08 / 0.78 (geometric mean, 4p, 15 / 13 left); letting the defence
give such tricks to the attack too: x0.76 at 15 left.

Measured and dropped: each seat's poorest cards credited in the sure tricks (1.00),
attack or defence leads ordered trumps first (1.0, mixed), bigger tables (<= 2%);
two more sure facts, sound and tested, x1.00 on made/fail at 10-14 left (4p): every
seat's plain-suit masters where each other trump holder must follow their suit (the
leader's quick tricks for any seat holding a trump no other can beat; along random
lines from 9 left it never raised the attack's lower bound), and the Petit pulled by
the leader's top trumps (0.93-0.95 on single positions: its partition marks cost more
than its cuts gain).

Measured and reverted: the exact T through the exact margin first (1.6x more nodes
than bisection on T); class buckets chosen by the top low cards' holders; iterative
deepening of the made/fail proof (a horizon where an undecided boundary counts against
the side being proven; 4p, 12 left: proofs need 5-7 of the 12 tricks, median node ratio
0.27).

Measured and reverted, fifth session: (a) with two threads, R_D and the real game raced
on two cores (a stop flag for the loser): median wall ratio 0.74 / 0.94 / 0.83 at 13 /
14 / 15 tricks left (4p; two tables share the caches, half the budget each).

Eighth session, on the real game's fail proofs (4p, the positions where R_DV fails):

* where they spend: on a 16-left fail (15.1M nodes) 74% of the nodes are in the last
  4-6 tricks; R_A proves the same fail in 8.9M, 2.2-2.7x fewer nodes in those tricks
  (a hand's pips of a suit are one card there). The pips' ranks rarely change the
  value: R_D = R_A = the real margin on 3 of 4 15-left fails (-6, -26, -42 / -46).
* measured and dropped: the defence's leads ordered by the attack's answers
  (mobility for the side that proves a fail): geometric mean x0.48 on 6 real-game
  fails at 15 left; bounds from the relaxed games' tables (the real game looking a
  position up in an R_DV table for a lower bound and an R_A table for an upper one:
  sound, as R_DV <= real <= R_A everywhere): x1.19 on the one position where it
  applied, and R_DV, R_A and the real game raced with linked tables (budgets doubling
  from 2^17) finished 9 of 12 16-left positions within 3e7 nodes against 10 of 12 for
  (a) as it is, median nodes 5.6M against 2.7M (made proofs pay for the other two);
  relaxed sub-searches in the real game's endgame (at a boundary with at most K tricks
  left that the table did not settle, R_DV then R_A asked at the same window in a
  table of their own before the real game): nodes x0.91 / 0.85 / 0.79 at K = 3 / 4 /
  5 (4p, 14 left, 11 positions: they settle a few thousand nodes, and each miss pays
  for two searches the partition table already spares the real game).
* speed (CPU time, same nodes, A/B in one process): the exact bucket's two entry
  lines prefetched with its meta line: x1.04-1.06 (kept); the key computed and its
  bucket prefetched before value_bounds, so the miss overlaps the bounds' work: x0.85
  in the real game, x0.93 in R_DV (a third of the boundaries are cut by the bounds and
  then paid for a key they did not need; reverted). perf: ~16% of the real game's
  time is the table probe's cache miss, 13% value_bounds, 11% order_moves, 10% part_key.
  Twentieth session: the table aligned to a cache line (malloc's 16-byte alignment
  split every bucket over two lines): x0.99-1.03 CPU, median x1.01 (kept); huge pages
  for it x1.02-1.04 more but ~70 ms at each fresh table (not kept). perf on (a) at the
  first lead (4p, 1e7 nodes): search 37 % (its table probe's miss in R_DD and R_A, the
  plain table, 16 % of all), order_moves 18 %, value_bounds 16 %, tt_key 10 %.

Not yet done (what the nodes are spent on: made proofs, where every defence card is
searched at each of the three defenders' turns -- 4.7 / 2.25 / 2.37 / 1.97 cards at
the defence's lead / first / second / last answer, R_DT at 14 left; first-move cutoffs
are 97-100%, the table hit rate 70-90% at trick boundaries and 98% of its hits cut; a
2^24 table changes nothing at 16 left): a better estimate of a proof's size for the
attack's choice (see mobility), quasi-symmetry beyond the low cards (honours of equal
rank distance), petit-au-bout / chelem class probes, threads. Seventh session: at the
first lead (4p, 16 deals) R_DV now fails cheaply on 9, and the real game's fail proofs
that follow (every attack card refuted at each attack turn: the taker's own branching)
finish 1 of 9 within 1e7 nodes; R_A after the fail 3 of 9 (``solver.dd.tarot``,
``relax_fail``: a wash over 3-5 players, on for 4p only since the eighth session). Cheaper fail proofs are what the first
lead needs next: tighter caps on the attack from the defence's sure tricks, or an
abstraction of the attack's own cards.

Ninth session (benchmarks/RESULTS.md): of 16 4p first leads at 2e7 nodes, 6 stop
inside the R_DV probe, in made proofs whose attack cards all cut first (near-minimal
trees: the defence's branching, 37-68% of its nodes answering trump leads), 5 in the
fail race. Measured and dropped: leads raced for the cut (node allowances doubling,
the first card to prove moved first: x0.61-0.92 on R_DV probes, x0.74-0.90 on (a) at
16 left; one R_A proof x1.52); a recent-position cache before the bounds and keys
(4,096 positions, Zobrist hashes kept by play/undo: CPU x1.04-1.06, x0.64-1.39 per
position); exact endgame values (at most 0.9-1.8% of boundary visits met a bound on
the wrong side); the attack's follows ordered by the later opponents' answers (x1.00,
x0.93 at a heavy weight).

Thirteenth session, measured and dropped (4p, geometric mean of the per-position node
ratio): a killer card per ply (the card that last cut there searched first; R_DV
probes at 14 left, 10 deals: x0.67 at the attack's nodes, x0.53 at both sides',
better on 1 of 10); mobility weights 2 / 8 / 16 instead of 4 (R_DV made proofs at 14
left, 12 deals: x0.85 / 0.98 / 0.70); partition search inside R_A's fail proofs
(``relax_part``, 15 left, 9 deals: x1.03 nodes, x0.81 CPU); each key word hashed on its own and summed (so the multiplies overlap instead
of chaining: CPU x0.98-1.06, tt_key stays ~12 % of a probe). Where a stuck R_DV made
proof spends (first lead, 2e7 nodes): 89 % of the table probes hit; the bounds cut
every boundary visit at 5 tricks left and more than half at 6; the nodes pile up at
6-9 tricks left (91 % of them), reached through the defence's alternatives in the first
tricks; 72 % of the inner nodes cut nothing (the defence's, all searched). Perfect
bounds at 7 left would save at most ~1.6x: the tree is wide, not deep.

Fourteenth session: which of the defence's choices make that width (diagnostic, not
kept: one node type of the defence at a time searched on its first card only, an
unsound upper bound of what any relaxation of it could give; R_DV made proofs, 4p,
geometric mean over 7 made positions at 15 / 16 left): its leads x64 / x133, its
discards x9.4 / x7.5 (those into a trick the attack surely takes x2.3 / x2.4 only),
its trumps x5.1 / x5.8, its follows x2.1 / x4.2. Hence R_DD (``set_relax
("defence-discard")``, ``rdd_moves``): a defender without trumps nor the Excuse that
cannot follow defers its discard and pays it later. Made proofs in R_DD against R_DV:
x7.6 fewer nodes at 15 left (all 7 still made), and at the first lead the made
proofs that ran past 2e8 nodes in R_DV take 1e6-1.5e7 (4p made/fail: 14 of 20 within
1.6e8 nodes against 10, median 11.3 s -> 2.8 s; 3p 10 against 9; 5p the same 11 but
x2.2 fewer nodes on them, geometric mean). Measured and dropped: deferring a
defender's follow too, where the attack's card wins and none of the defender's cards
of the suit can beat it (x0.80 at 16 left: the kept cards widen the later tricks);
the attack's discards deferred the same way in R_A for fail proofs (x1.00 at the
first lead, 0.55 on one); R_DD instead of R_DT for (b)'s probes (x1.18 / 1.27 fewer
nodes where both finish at 12 / 13 left, but 6 of 12 finish at 13 left against 8). In the
real game's fail proofs the attack's leads are the width (collapsing them x96 at 15
left), its follows x1.3-6, discards x1.3-1.8.

Fifteenth session, measured and dropped (benchmarks/RESULTS.md): three more sure facts
for the upper bound -- the defence's top honour of a suit the taker still holds
(unsound: the taker may shed the suit by discards once out of trumps and take the
last trick, where the honour is its holder's last card; its sound restriction
x1.00), the top trump's holder's masters of suits every opponent holds (sound,
fires at 1 of 120 positions), the attack's points capped by the tricks it can still
win and each seat's richest cards in them (sound, root slack 22 -> 21, fail proofs
x1.00-1.27) -- and R_DD's owed points (x1.01); relaxed sub-probes at the real game's
boundaries 9-16 tricks left (R_D: x0.07-0.60 on first-lead fails, R_A: no better than
the race); the defence's leads in real-game fail proofs ordered by R_DD's or R_A's
table (geometric mean x0.20 / x0.61, single deals x0.01-12). And one that is wrong: a
seat following or discarding into a trick its side surely loses giving only its
lowest card of a suit. A higher plain card can be forced to win a later trick its
holder wants to lose (the lead, petit au bout), so holding it is not always better: a
3p endgame's defender must keep 3C rather than JC (T 96, not 132;
tests/test_dd_tarot_exact.py). merge2's runs, with no live card between, are the
sound form. Kept instead, as a rule of the relaxed games (``lowest``): the side their
proofs run against (the attack below the real game, the defence in R_A) loses those
choices, which keeps each game on its side of the real one: R_A's first-lead fail
proofs x1.00-1.63, R_DD's made proofs x1.00-1.03, (a) 4p x1.12 / x1.07 (geometric mean,
20 deals at 1.6e8 / 50 at 1e7 nodes; the same ones finish).

Sixteenth session (benchmarks/RESULTS.md). Where the proofs at the first lead are wide
(4p, one node type of the side that must be refuted searched on its first card only:
unsound, an upper bound of what any relaxation of it could give, geometric ranges over
6 R_DD made proofs / 4 R_A fail proofs): R_DD made proofs -- the defence's leads
x50-800, its follows into a trick the defence surely takes x1.6-4.8, contested follows
x1.6-5.5, into a trick the attack surely takes x1.0-1.75, its trumps x1.6-4.5 (its
lowest trump into a trick the attack surely takes x1.1-2.4); R_A fail proofs -- the
attack's leads x10-3000, its follows, trumps and discards x1.0-2.4. Measured and
dropped: a defender's follow into a trick the defence surely takes and that it cannot
beat deferred like R_DD's discards (x0.2-0.7: the kept cards widen later tricks, as
for follows into lost tricks in the fourteenth session); a cap on the discards a seat
may owe in R_DD (1-3 owed: x0.1-0.9; with no PAY moves, or only one split of them:
x0.1-0.3: shedding a suit is what keeps R_DD's hands small); the last trick played out
without bounds, table or ordering (in the real game the bounds settle nearly every
position before it, x1.00; in R_DD every last-trick position of a made proof still
holds 3+ owed cards, and searching them without the table was x0.8-0.9 in CPU); the
seat arithmetic by a table instead of % n (CPU x0.93-1.02). Kept: a seat's only legal card
returned by order_moves at once (same nodes, CPU ~x1.04). The bounds' slack (real
game, random lines, exact value within 2e6 nodes; as benchmarks/dd_tarot_bounds.py
found on heuristic lines): the attack's upper bound is 28 / 44 doubled points above
the value at 6 / 8 tricks left (median), the lower bound 8 / 12 below it; fail proofs'
nodes sit at 4-9 tricks left, where only the upper bound can cut them: a tighter upper
bound is what fail proofs (R_A, real, and 5p's) need next.
Prototyped for it (Python): each defender's cards of a plain suit above the taker's
highest win at least min(h_j, t_S) of the tricks the taker's cards of that suit fall
in (the taker must follow, cannot trump them), n points each -- sound on 119 random
positions, but the upper bound's mean slack only 31 -> 29 / 41 -> 39 at 6 / 8 left (it
cannot be added to the master-trump credits, whose tricks may be the same): not built.

Eighteenth session: R_DD's bounds settle the discards still owed (``sure_owed``,
``rdd_owed``): a seat owing o1 deferred discards to the attack's tricks and o0 to the
defence's pays them from the cards it holds, so the attack surely gains its o1
poorest cards (less the half point their tricks got) and cannot get its o0 poorest.
R_DD made proofs keep defenders' honours to the end, where this cuts: deal 24 at the
first lead 26.0M -> 21.3M nodes (its last trick 4.95M -> 2.76M nodes, deal ends 2.7M
-> 0.59M). (a) at the first lead, 50 deals at 1e7 (``--baseline no-owed``): the same
finish, geometric mean x1.13 (4p) / 1.03 (3p) / 1.00 (5p); R_DD's exact T 10 positions
at 13 / 15 / 11 left x1.13 / 1.03 / 1.04 (4p / 3p / 5p). Then ``sure_owed_tricks``: a
defender without trumps or Excuse gives the attack one more card (followed, or owed)
in each trick the attack's credit counts, so its poorest o1 + k cards: R_DD made proofs
at the first lead 24 / 40 / 3 x1.19 / 1.54 / 1.03 more (17.9M / 12.6M / 12.8M nodes),
(a) on 50 deals x1.01 (``--baseline no-owed-tricks``). Measured and dropped the same
session: the taker's plain cards that a defender's higher cards of the suit surely
beat (a lone taker must follow and cannot trump them; his poorest min(t, h) of the
suit, with the trick's other cards at a half point each, as an alternative to the
defence's trump credit): sound (600 endgames, bounds and values), tighter at 113 of
600 roots, but R_A / real / R_DD fail proofs x1.00; a side one of whose seats holds
only trumps no opposing trump beats takes every trick left (the pile then known, in
R_DD bounded by the owed settlements): x1.00-1.04 (it fires where the bounds nearly
cut anyway); the seat arithmetic ``% n`` as a conditional subtraction: CPU x1.00;
reply_choices counting R_DD's deferred discard as one answer: x0.84-0.96 on 5 of 6 R_DD
made proofs (the kept cards widen the later tricks; ordering by the old count is better);
``sure_owed_tricks`` for the defence's credited tricks too: unsound as first written (a
defence leader's quick tricks count its own cards at their points, not 1), x1.00-1.01;
the cards the others must follow with to the leader's quick tricks (their k poorest of
the suit): sound, x1.00.

Nineteenth session: where fail proofs spend (diagnostic, 4p first leads, R_A and the
real game): 65-99 % of their nodes are in the subtrees of defence cards searched
before the card that refuted (each such card costs a made proof), a third of all
nodes under a first-ordered trump lead where a plain lead refuted, and under T21
played to add its points or take a trick where a lower trump kept it for later.
Kept, a move ordering only: (a)'s fail proofs (after a relaxed fail) order the
defence's trump leads after its plain leads (``set_trump_leads_last``; 4p 20 of 50
first leads within 1e7 nodes against 18, 5p 25 against 23, 3p 20 against 22 so off
there). Measured and dropped: a follow counting T21 as a one-point trump in the
ordering (its points are never at stake: R_A and real-game fail proofs alone x1.23
geometric mean over 18, R_DD made proofs x1.01-1.11, but (a) at the first lead x1.00 /
1.01 / 0.98 (4p / 3p / 5p, 50 deals at 1e7: 20 / 21 / 26 finish against 20 / 22 / 25;
4p 20 deals at 1.6e8, the same 14, median 10.1M -> 9.3M nodes, x0.99)); the refuting
side's cards raced for the cut (each searched within a node allowance doubled each
round, the first to cut taking the node; ``set_race``): the waste falls to 1-20 % but
the races cost as much (R_A alone x0.09-27, (a) 4p x0.80 geometric mean, single deals
x0.28-1.65; with the ordering's first card given 20 times the others' allowance and
one round: x0.99 4p, 3p 2 fewer within 1e7, 5p one more); the defence's contested
ruffs highest first (x1.02).

Twentieth session: the table aligned to a cache line (``atout_table_alloc``, CPU
x1.01; see the speed notes above). The waste diagnostic at the attack's nodes of R_DD's made proofs (4p first
leads): 62-80 % of deals 18 / 24 / 40's nodes under attack leads that did not succeed
(mostly a trump lead, first by its mobility, where a plain lead succeeded), 5 % / 0 %
on deals 3 / 42 (near-minimal trees: the defence's width). Kept, move orderings only:
``set_attack_trump_leads_last`` (R_DD's made proofs, 4p; see its docstring: 4p 21 of
50 first leads within 1e7 against 20, 20 deals at 1.6e8 the same 14, median 10.1M ->
9.4M nodes; 5p 24 of 50 against 25, 3p 20 against 22, so off there), and
``set_trump_leads_last``'s Excuse lead last (R_A's fail proofs x1.50 over 11 4p first
leads, none dearer; (a) 4p x0.99 / x1.06 on the same 20 / 14 at 1e7 / 1.6e8, 5p 26 of
50 against 25). Measured and dropped (geometric means of per-deal node ratios): every
attack trump lead last
(R_DD made proofs x0.69), T21's lead demoted (x0.53-0.70), the attack's rule only at
>= 13 or <= 12 tricks left (x1.02 each); the defence's trump leads in the heuristic's
order, or its lowest trump first, where the leader holds as many trumps as the taker
(R_A fail proofs x0.73 / x0.59); the defence's plain leads in the suits the attack is
shortest in first (x0.98, honours first x0.90; per deal x0.05-11); the Excuse lead
last in 3p's real-game fails (x0.86).

Twenty-first session, measured and dropped (R_A's fail proofs at 7 4p first leads,
R_DD's made proofs at 6; benchmarks/RESULTS.md): the leads ordered by a one-trick
search ending in the static evaluation (defence in R_A x0.46-0.52, attack in R_DD
x0.37-0.40); killer cards and a history table for the defence (x0.12-0.92); ETC at a
trick's last card (nodes x1.03, CPU x0.84); the defence's lowest trump into a trick it
cannot win (x0.64); R_AC, a relaxation above R_A in which the attack may concede a
trick its plain honour wins (to the winner without that card), so that a higher card
of a suit is never worse to hold and only the poorest goes into a lost trick: sound,
but the concession branches cost more than the pruning saves (x0.89-0.99; the pruning
alone, unsound, x1.22 and x1.88 on the median deal: what the attack's honours played
into lost tricks cost); a sweep fact (a side whose opponents hold no trump, with a seat
holding only trumps, takes every trick left: the chelem and petit au bout in the
bounds): (b) x1.00-1.01 at 10-13 left. ``-mbmi2`` (pext inlined): CPU x1.005.

Twenty-second session, kept: quasi-symmetry (``quasi``, see HON_LESS): shape entries
in the plain table under the margin objective, so R_DD's made proofs and R_A's fail
proofs (a) reuse the bounds of positions that differ only in which honours are live,
widened by what the matched honours are worth less or more. (a) at the first lead
(benchmarks/dd_tarot.py --baseline no-quasi, the same build): 4p 50 deals at 1.6e8
nodes 36 finish against 35, median 26.9M -> 17.6M nodes (2.85 s -> 2.09 s), x1.30
geometric mean on the 35 (x1.0-5.5, none dearer); at 1e7 4p 23 of 50 against 21
(x1.17), 5p 28 against 26 (x1.10; median 8.3M -> 6.7M), 3p the same 22 (x1.23); 3p 20
deals at 1.6e8 the same 10, median 103M -> 86M (x1.31). R_A fail proofs at 7 4p first
leads x1.00-1.62, R_DD made proofs at 6 x1.12-1.78; a shape probe costs ~5 % CPU a
node. Measured and not kept: two representatives a shape (x1.000), the shape entry
read also after an exact hit that does not cut (x1.001-1.004). 31 % of the exact-key
misses find a shape entry (R_A, deal 0), 93 % of those cut. Then under T too (the
distance moves the points a bound was proven at): R_DD's exact T at 13 left (4p, 8
deals) x1.00-1.43 (deal 5 13.7M -> 9.5M nodes), (a) then (b) at 12 / 13 left x1.02 /
1.03 (10 deals: (b)'s real-game probes use the partition table). Then shape entries in
the partition table under T (a shape cut there keeps every low card, so its bound is
claimed for the exact position only): (a) then (b) at 12 / 13 left x1.27 / 1.45
(median 1.34M -> 0.92M / 8.0M -> 5.4M nodes, the same 9 / 6 of 10 finish), (c) at 11
/ 12 left x1.28 / 1.22; under the margin too it was (a) x0.975 at 1e7 (4p, 50 deals,
the same 23; one real-game fail proof x0.26: the kept cards cost the classes above),
so not there.

Twenty-third session: score classes (``sweep_probe``, ``sweep_values``,
``sweep_rest_bound``; solver.dd.tarot._sweep_classes): the chelem and the petit au
bout as probes of their own. G_S, the game where side S loses unless it takes every
trick, is searched as an AND/OR tree: only trick winners, the Petit's trick and the
Excuse matter there, so the key is the shape key (no honours) with the few words T
still reads; a boundary is refuted at once when the other side has a sure trump trick
(two with S's Excuse, TAROT-EXC-6) or T's best sweep is on the wrong side of the
threshold, and value_bounds decide it too (T forced past the threshold and past every
end S does not sweep is a sweep). A sweep ends on one of a few T values
(sweep_values), probed from S's worst: a hold proves T beyond it, a fail proves no
sweep up to the next value, so T is there or in an end S does not sweep
(sweep_rest_bound). The refuting side searches only its lowest plain card of a suit
the trick's winner already beats (``sweep_low``, sweep_lowest: a plain card's rank
binds no other seat, so keeping the higher one is never worse for the side that must
win one trick; the proving side too when it is one seat): the sample deal's defence
sweep (examples/tarot4.txt, 18 left) 15.2M -> 0.84M nodes (x18). The bisection had
proven the same bound (T <= -354) within 5M nodes, so the sample's (b) is unchanged;
its petit au bout on top stays open at 4e8 (the search refutes every defence line,
75 % of its cut boundaries after the attack won a trick; along a line where the
defence sweeps it is proven at 12 left in 1.2M nodes, open at 13 left at 1e8). At the
150 benchmark first leads the class step costs a median 4.5-23.5 nodes and rules out
the chelem term on 148; at 12-13 left both sides have won tricks and it does not run;
on strong-taker deals the summed width of (b)'s proven intervals x0.35 / 0.47 / 0.62
(3p / 4p / 5p, benchmarks/dd_tarot_classes.py), the same exact counts.

Twenty-fourth session: the table's replacement (``tt_effort``, on): the plain table's
buckets hold four entries (two cache lines) and a new entry evicts the one whose bounds
cost the fewest nodes (the bit length of its subtree's node count, kept at its largest
when the entry is updated); the partition table's buckets rank their entries the same
way. Before, two-entry buckets kept the deeper entry (cards left) in slot 0 and always
replaced slot 1. Depth says little in a null-window proof: at one depth a boundary cut
by its bounds and one that cost a million nodes look alike. Single probes of 15-28M
nodes at 2^20 entries (4p R_A deals 0 / 17, R_DD deal 46, 3p R_DD deals 28 / 13):
x1.065 / 1.147 / 1.068 / 1.164 / 1.058 fewer nodes, where a 2^24 table (the capacity
ceiling) gives x1.12 / - / 1.15 / 1.27 / -; two-entry buckets with the effort rank
alone x1.04-1.12; eight-entry buckets a few tenths of a percent fewer nodes than four
and slower. (a) at the first lead (benchmarks/dd_tarot.py --baseline no-effort,
1.6e8 nodes): 4p 50 deals, the same 36 finish, median 17.6M -> 16.8M nodes, x1.03
geometric mean; 3p 20 deals, the same 10, x1.01. Within 1e7 nodes the table is not
full and nothing changes. Less than on the single probes (deal 0: (a) 21.8M -> 21.4M
against its R_A probe's 17.3M -> 16.2M; (a)'s fail race restarts R_A with doubled
budgets; why the gain shrinks there was not measured).

Twenty-fifth session, measured and dropped: a seat's plain-suit masters as sure
tricks in value_bounds (``seat_masters``, prototyped: in each suit the seat's run of
top live cards, as many as every other seat holding a trump holds cards of the suit
(such a seat sheds the suit only in its tricks), credited with their points and 1 for
each other card once the seat leads or surely wins a trick with a trump, its Excuse
fitted in). Equal values on the brute-force endgames, and it moved a bound (mostly
the lower, by 11 doubled points, a king's trick) at 42 % of the boundaries of random
lines from a 3p first lead, yet R_DD's made proofs of 3p deals 28 / 13 took x1.000 / 1.008 fewer
nodes (not one cut of deal 28 changed), 4p R_DD deal 46 / R_A deal 0 x1.025 / 1.016,
at x0.85-0.87 the speed a node; exact endgames x1.01-1.06. The boundaries a made proof
searches sit close to the threshold: on 3p positions 14 tricks before the end (the
heuristic's play) the lower bound is 0-49 doubled points below R_DD's margin, median
3 -- what is left to cut there is the last few points, not a king. Then (a)'s fail
race (solver.dd.tarot, ``real_first``): the doubling budgets were what shrank the
gain above, see RESULTS.md.

Twenty-sixth session, measured: the taker's leads in R_DD's made proofs (4p, 130
positions 9-15 tricks before the end, each lead searched alone on a fresh table). The
cheapest lead that succeeds costs x0.52 of this order's choice (geometric mean; the
failed leads tried first are x1.18 of it, the choice among the leads that succeed
x1.63), often a middle trump that draws the defence's. No static rule finds it: a
12-feature linear score (sure winner, trump, T21, points, cards above, mobility,
ruffers, suit lengths, the defence's trumps) fitted on the costs gains x0.98 under
cross-validation, and its one simple rule (T21 after the leads that may lose) costs
x0.77 on (a) itself (4p, 13 deals at 1e7). Not kept; see RESULTS.md.
"""
from libc.stdint cimport uint64_t, int64_t, int16_t, uint8_t, uint16_t, uint32_t
from libc.string cimport memset, memcpy
from libc.math cimport floor, log2
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from bitboard cimport popcount64, lowest_bit, highest_bit, clear_lowest, prefetch

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__x86_64__) && defined(__GNUC__)
    #include <immintrin.h>
    __attribute__((target("bmi2"))) static uint64_t atout_pext_hw(uint64_t x, uint64_t m) {
        return _pext_u64(x, m);
    }
    #endif
    static uint64_t atout_pext_sw(uint64_t x, uint64_t m) {
        uint64_t r = 0, bb = 1;
        while (m) {
            if (x & m & (~m + 1)) r |= bb;
            bb <<= 1;
            m &= m - 1;
        }
        return r;
    }
    static int atout_has_bmi2 = -1;
    /* parallel bit extract: the bits of x at the positions of m, packed low */
    static inline uint64_t atout_pext(uint64_t x, uint64_t m) {
    #if defined(__x86_64__) && defined(__GNUC__)
        if (atout_has_bmi2 < 0) atout_has_bmi2 = __builtin_cpu_supports("bmi2") ? 1 : 0;
        if (atout_has_bmi2) return atout_pext_hw(x, m);
    #endif
        return atout_pext_sw(x, m);
    }
    /* parallel bit deposit: the low bits of x to the positions of m (pext's inverse) */
    static inline uint64_t atout_pdep(uint64_t x, uint64_t m) {
        uint64_t r = 0, bb = 1;
        while (m) {
            if (x & bb) r |= m & (~m + 1);
            bb <<= 1;
            m &= m - 1;
        }
        return r;
    }
    """
    uint64_t atout_pext(uint64_t x, uint64_t m) nogil
    uint64_t atout_pext_sw(uint64_t x, uint64_t m) nogil
    uint64_t atout_pdep(uint64_t x, uint64_t m) nogil

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(_WIN32)
    #include <malloc.h>
    #else
    #include <sys/mman.h>
    #endif
    /* The transposition table's memory, aligned to a cache line so that a bucket (64
       bytes, or 128 / 512 with partition search) never straddles two lines, which
       malloc's 16-byte alignment made every bucket do. Measured ((a) at the first
       lead, 5e6 nodes, 15 deals of 3-5 players, CPU, A/B alternated): x0.99-1.03,
       median x1.01. Huge pages for it (2 MB alignment and madvise) gained 2-4 % more
       but cost ~70 ms at each fresh table: not kept. Twenty-first session: anonymous
       pages instead of posix_memalign and a memset, so a fresh table costs what the
       search touches (a core and a 20k-node probe: 6.2 -> 4.1 ms at 2**20 entries,
       87.7 -> 17.7 ms at 2**22, 338 -> 21 ms at 2**24). */
    /* n bytes of zeroed memory (NULL if there are none) */
    static void* atout_table_alloc(size_t n) {
    #if defined(_WIN32)
        void* p = _aligned_malloc(n, 64);
        if (p) memset(p, 0, n);
        return p;
    #else
        /* anonymous pages: page-aligned and zero, each zeroed by the system when first
           touched, so a search pays only for the part of the table it uses */
        void* p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    #endif
    }
    static void atout_table_free(void* p, size_t n) {
    #if defined(_WIN32)
        _aligned_free(p);
    #else
        munmap(p, n);
    #endif
    }
    """
    void* atout_table_alloc(size_t n) nogil
    void atout_table_free(void* p, size_t n) nogil

cdef extern from *:
    """
    #include <stdio.h>
    #include <stdlib.h>
    #ifndef ATOUT_CHECKED
    #define ATOUT_CHECKED 0
    #endif
    /* checked builds (ATOUT_BOUNDSCHECK=1): the core's invariants, fatal if broken */
    static void tarot_invariant(int ok, const char* what) {
        if (!ok) { fprintf(stderr, "tarot_core invariant broken: %s\\n", what); abort(); }
    }
    """
    int ATOUT_CHECKED
    void tarot_invariant(int ok, const char* what) nogil

cdef enum:
    MAXP = 5
    MAXPLY = 80
    MAXTRICKS = 24
    EXCUSE = 21
    PETIT = 0
    MONDE = 20
    NCARDS = 78
    NOMOVE = 255
    # R_DD (set_relax("defence-discard")): a defender's deferred discard (PHANTOM) and
    # "pay every card of suit S held, j of them to the defence's tricks, then PHANTOM"
    # (PAYBASE + 32 * S + j); never cards of a hand, never in a mask
    PHANTOM = 78
    PAYBASE = 80
    NIDS = 256

cdef uint64_t TRUMPS = (<uint64_t>1 << 21) - 1      # T1..T21 in word 0
cdef uint64_t EXBIT = <uint64_t>1 << 21
cdef uint64_t SUIT0 = (<uint64_t>1 << 14) - 1        # one suit block in word 1
# the terms of the fitted split (set_eval): intercept, power split, live points, live
# points attack - defence, trumps A - D (Petit aside), trumps above all the other side's
# A - D, plain-suit masters A - D, cuts A - D, the attack leads, kings A - D, the attack
# / the defence holds the Petit, the attack's Petit is hunted by static_eval's rule
cdef enum:
    EVAL_TERMS = 13
    SOFT_HALF = 256       # soft_points' table spans margins -SOFT_HALF..SOFT_HALF-1
cdef uint64_t BOUTS0 = (<uint64_t>1 << 0) | (<uint64_t>1 << 20) | (<uint64_t>1 << 21)
# the "low" cards, all worth a half point: T2..T20 (word 0) and the pips 1..10 of each
# suit block (word 1). Partition search abstracts these below the ranks that mattered.
cdef uint64_t LOW0 = ((<uint64_t>1 << 20) - 1) & ~(<uint64_t>1)
cdef uint64_t LOW1 = 0
cdef uint64_t SUIT_TOPS = 0      # bit 13 of each suit block (its King)
cdef uint64_t SUIT_LOWS = 0      # bits 0..12 of each suit block
# word-1 masks of kings, queens, knights, jacks (ranks 13, 12, 11, 10 of each suit)
cdef uint64_t KINGS1 = 0
cdef uint64_t QUEENS1 = 0
cdef uint64_t KNIGHTS1 = 0
cdef uint64_t JACKS1 = 0
cdef uint64_t PLAIN_LEVELS[5]  # pips, jacks, knights, queens, kings: poorest first
cdef int PTS[NIDS]        # doubled card values (TAROT-DECK-4); 1 for R_DD's moves
cdef int IS_BOUT[NIDS]    # TAROT-DECK-3
cdef int R2[4]            # doubled required points R(B) (TAROT-COUNT-2)
cdef int SUIT[NIDS]       # suit_of per card (per-node hot paths read the table); -2 R_DD
cdef uint64_t ABOVE[NIDS] # the higher cards of the card's suit, in the card's word
cdef int LOST_SC[NIDS]    # order_moves' score of a card thrown into a lost trick
cdef uint64_t ZLEAD[MAXP]
cdef uint64_t ZMISC[64]


cdef uint64_t _splitmix(uint64_t* s) noexcept nogil:
    s[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = s[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef void _init_tables():
    global KINGS1, QUEENS1, KNIGHTS1, JACKS1, SUIT_TOPS, SUIT_LOWS, LOW1
    cdef int c, r, s, p
    cdef uint64_t seed = 0x5EED7A207
    for c in range(NCARDS):
        if c < 22:
            PTS[c] = 9 if (c == PETIT or c == MONDE or c == EXCUSE) else 1
            IS_BOUT[c] = 1 if (c == PETIT or c == MONDE or c == EXCUSE) else 0
        else:
            r = (c - 22) % 14
            PTS[c] = 9 if r == 13 else (7 if r == 12 else (5 if r == 11 else (3 if r == 10 else 1)))
            IS_BOUT[c] = 0
    for s in range(4):
        SUIT_TOPS |= <uint64_t>1 << (14 * s + 13)
        SUIT_LOWS |= ((<uint64_t>1 << 13) - 1) << (14 * s)
        KINGS1 |= <uint64_t>1 << (14 * s + 13)
        LOW1 |= ((<uint64_t>1 << 10) - 1) << (14 * s)
        QUEENS1 |= <uint64_t>1 << (14 * s + 12)
        KNIGHTS1 |= <uint64_t>1 << (14 * s + 11)
        JACKS1 |= <uint64_t>1 << (14 * s + 10)
    PLAIN_LEVELS[0] = LOW1
    PLAIN_LEVELS[1] = JACKS1
    PLAIN_LEVELS[2] = KNIGHTS1
    PLAIN_LEVELS[3] = QUEENS1
    PLAIN_LEVELS[4] = KINGS1
    for c in range(NCARDS):
        if c < 21:
            SUIT[c] = 4
            ABOVE[c] = TRUMPS & ~((<uint64_t>2 << c) - 1)
        elif c == EXCUSE:
            SUIT[c] = -1
            ABOVE[c] = 0
        else:
            s = (c - 22) // 14
            SUIT[c] = s
            ABOVE[c] = (SUIT0 << (14 * s)) & ~((<uint64_t>2 << (c - 22)) - 1)
        LOST_SC[c] = -4 * PTS[c] - (c % 22) // 4
    for c in range(NCARDS, NIDS):
        # R_DD's moves: a deferred discard is worth 1 now (every card is worth at least
        # that much, the rest comes when it is paid) and belongs to no suit
        PTS[c] = 1
        IS_BOUT[c] = 0
        SUIT[c] = -2
        ABOVE[c] = 0
        LOST_SC[c] = 0
    R2[0] = 112
    R2[1] = 102
    R2[2] = 82
    R2[3] = 72
    for p in range(MAXP):
        ZLEAD[p] = _splitmix(&seed)
    for c in range(64):
        ZMISC[c] = _splitmix(&seed)


_init_tables()


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t mix64b(uint64_t z) noexcept nogil:
    # the check word's mixer (MurmurHash3's finaliser): independent of mix64's
    z = (z ^ (z >> 33)) * <uint64_t>0xFF51AFD7ED558CCD
    z = (z ^ (z >> 33)) * <uint64_t>0xC4CEB9FE1A85EC53
    return z ^ (z >> 33)


cdef inline int card_word(int c) noexcept nogil:
    return 0 if c < 22 else 1


cdef inline uint64_t card_bit(int c) noexcept nogil:
    return (<uint64_t>1 << c) if c < 22 else (<uint64_t>1 << (c - 22))


cdef inline int suit_of(int c) noexcept nogil:
    # 0..3 plain suits, 4 trumps, -1 Excuse
    if c < 21:
        return 4
    if c == EXCUSE:
        return -1
    if c >= NCARDS:
        return -2
    return (c - 22) // 14


cdef inline uint64_t suits_present(uint64_t w1) noexcept nogil:
    # the King's bit of each suit block in which the plain-suit word w1 holds a card:
    # adding 2^13 - 1 to a block's low 13 bits carries into bit 13 iff one is set
    return (((w1 & SUIT_LOWS) + SUIT_LOWS) | w1) & SUIT_TOPS


cdef inline int mask_points(uint64_t w0, uint64_t w1) noexcept nogil:
    # doubled value of a card set: 1 per card + extras for bouts and honours
    return (popcount64(w0) + popcount64(w1) + 8 * popcount64(w0 & BOUTS0)
            + 8 * popcount64(w1 & KINGS1) + 6 * popcount64(w1 & QUEENS1)
            + 4 * popcount64(w1 & KNIGHTS1) + 2 * popcount64(w1 & JACKS1))


cdef struct Saved:
    # the trick's state before a card (undo_card puts it back)
    int cur
    int led
    int wt
    int wi
    int wc
    uint64_t pay       # R_DD: the plain-suit cards a PAY move took from the hand
    int pay_att        # ... and the doubled points it added to the attack's pile


cdef struct Tally:
    # what finish_trick changes, once a trick: the next leader and the sides' piles so
    # far. Pos keeps it in one struct so the trick's undo is one copy (p.tsaved)
    int leader
    int att_pts        # doubled points of the attack's pile so far (dog/ecart included)
    int att_bouts
    int att_tricks
    int def_tricks
    int petit_trick    # trick number in which T1 was played, -1 if not yet
    int pb             # petit au bout after the last trick: +1 attack, -1 defence, 0
    int exc6           # 1 if the last trick was won by the Excuse (TAROT-EXC-6)
    # R_DD: each seat's deferred discards not yet paid, by the side that won their
    # trick ([seat][0] defence, [seat][1] attack)
    int owe[MAXP][2]


cdef struct Pos:
    int n
    int total_tricks
    int ply            # cards played since the core position was set up (+ trick prefix)
    int start_ply
    Tally tally        # leader and piles (finish_trick)
    int cur            # seat to act
    int led            # first card of the trick other than EX (-1: none yet)
    int wt             # highest trump in the trick (-1: none)
    int wi             # index in the trick of the card winning it so far (-1: none)
    int wc             # that card (-1: none; the Excuse never wins, TAROT-EXC-2)
    int ntrick
    int trick_no
    uint64_t hand[MAXP][2]
    uint64_t live[2]   # union of the hands (cards not yet played)
    uint64_t side_live[2][2]  # the same per side (0 defence, 1 attack)
    int live_pts       # doubled points of the live cards
    int side[MAXP]     # 1 = attack, 0 = defence
    int excuse_rule    # 0 = changes_side (TAROT-EXC-5), 1 = to_trick_winner
    int restrict_first # TAROT-CALL-6 active for the opening lead
    uint64_t forbid[2] # cards the opening lead may not be
    int played[MAXPLY]
    Saved saved[MAXPLY]
    Tally tsaved[MAXTRICKS]  # tally before each trick was resolved
    # objective (TAROT-SCORE-1 / TAROT-VAR-2)
    int base
    int mult
    int pb_mult
    int poignee
    int chelem_announced
    int objective      # OBJ_T: T of TAROT-SCORE-1; OBJ_MARGIN: E = P - R(B) (doubled)
    int sure_ex        # value_bounds credits the Excuse to its owner's side (>= 2 left)
    int sure_trumps    # value_bounds credits the tricks of master trumps (n points each)
    int sure_lead      # ... and the leader's sure lead of a plain-suit master
    int sure_match     # ... counting trumps no opposing trump can beat (sure_trump_tricks)
    int sure_won       # ... safe from TAROT-EXC-6 once the side has won a trick
    int sure_petit     # ... and the Petit to its side when the other side has no trump
    int sure_owed      # ... R_DD: the discards owed settled from the cards held (rdd_owed)
    int sure_owed_tricks  # ... counting too the cards the attack's sure tricks will take
    # static_eval's point split: 0 = by trick-taking power (as built), 1 = a linear form
    # fitted to exact margins (set_eval, EVAL_TERMS weights in doubled points)
    int eval_fit
    double eval_w[EVAL_TERMS]
    # > 0: the T leaf is f_points' expectation over a final pile spread normally by this
    # many doubled points around the estimate (set_eval's ``spread``)
    double eval_sd
    # soft_points by margin e = pts - R(B), for -SOFT_HALF <= e < SOFT_HALF (set_eval
    # fills it: the contract's base, multiplier and poignée are fixed by then)
    int soft_tab[2 * SOFT_HALF]
    # relaxed games (set_relax): plain-suit pips (1..10) have no rank; a trick whose
    # best card of the led suit is a pip goes to any of the seats that played one,
    # chosen by the defence (RELAX_DEFENCE) or the attack (RELAX_ATTACK)
    int relax
    # R_DT (set_relax("defence-trumps"), with relax == RELAX_DEFENCE): the defence's
    # low trumps have no rank among themselves between two trumps of the attack (their
    # "class", trump_class_bounds); the defence picks the winner among its trumps of
    # the trick's top class and may underplay a trump of the top class
    int relax_trumps
    # R_DV (set_relax("defence-void"), R_DT included): a trick without trumps in which
    # the attack played no card of the led suit goes to any defender that followed it,
    # chosen by the defence (pip_ties): in a suit the attack can no longer follow, the
    # defence's cards have no rank, only points
    int relax_void
    # R_DD (set_relax("defence-discard"), R_DV included): a defender without trumps
    # nor the Excuse that cannot follow discards nothing now (PHANTOM) and pays later
    # (PAY moves, or what it holds at the end): ``final_value``, ``rdd_moves``
    int relax_discard
    int force_wi       # the trick winner's index chosen for the next finish_trick


cdef enum:
    OBJ_T = 0
    OBJ_MARGIN = 1

cdef enum:
    RELAX_NONE = 0
    RELAX_DEFENCE = 1
    RELAX_ATTACK = 2


cdef inline int to_act(Pos* p) noexcept nogil:
    return p.cur


cdef inline int is_pip(int c) noexcept nogil:
    """A plain-suit pip (1..10): no rank in the relaxed games (set_relax)."""
    return c >= 22 and (LOW1 >> (c - 22)) & 1


cdef inline int is_over(Pos* p) noexcept nogil:
    return p.trick_no >= p.total_tricks


cdef inline uint64_t trump_class_bounds(Pos* p) noexcept nogil:
    """R_DT: the trumps that bound the defence's trump classes in the current trick:
    the attack's live trumps, the attack's trumps already in this trick, T1 and T21.
    Every comparison of a defence trump with one of these is the real one; two defence
    trumps with no bound between them are of one class and have no rank in R_DT."""
    cdef uint64_t b = (p.side_live[1][0] & TRUMPS) | (<uint64_t>1 << PETIT) \
        | (<uint64_t>1 << MONDE)
    cdef int base = p.ply - p.ntrick, i, c
    for i in range(p.ntrick):
        c = p.played[base + i]
        if c < 21 and p.side[(p.tally.leader + i) % p.n]:
            b |= <uint64_t>1 << c
    return b


cdef inline uint64_t lowest_trump_class(uint64_t free, uint64_t bounds) noexcept nogil:
    """R_DT: the trumps of ``free`` (no bound among them) in the class of its lowest
    one: those below the next bound above it (trump_class_bounds)."""
    cdef uint64_t upper = bounds & ~((<uint64_t>2 << lowest_bit(free)) - 1)
    return free & (((<uint64_t>1 << lowest_bit(upper)) - 1) if upper else TRUMPS)


cdef inline uint64_t class_lowest(uint64_t free, uint64_t bounds) noexcept nogil:
    """R_DT: the lowest trump of each class among ``free`` (trumps that are no bound):
    one card for each class, as the search branches on them."""
    cdef uint64_t out = 0, whole
    while free:
        whole = lowest_trump_class(free, bounds)
        free &= ~whole
        out |= whole & (~whole + 1)
    return out


cdef inline uint64_t relaxed_overtrump(Pos* p, uint64_t trumps, int w) noexcept nogil:
    """R_DT: the trumps a defender may play when it must overtrump w (the real rule:
    those above w, else any, TAROT-PLAY-4.2/5). When w is a defence trump of a class
    (no bound at w), the defender holding a trump above the class must play one of the
    class or above, else any trump: a superset of the real choices in every position
    of the class, so R_DT's value is at most R_D's."""
    cdef uint64_t b = trump_class_bounds(p), over
    cdef uint64_t below = b & ((<uint64_t>1 << w) - 1)
    cdef uint64_t above = b & ~((<uint64_t>2 << w) - 1)
    if (b >> w) & 1:
        over = trumps & ~((<uint64_t>2 << w) - 1)
        return over if over else trumps
    if above and (trumps & ~((<uint64_t>1 << lowest_bit(above)) - 1)):
        if below:
            return trumps & ~((<uint64_t>2 << highest_bit(below)) - 1)
        return trumps
    return trumps


cdef void legal_mask(Pos* p, uint64_t* out) noexcept nogil:
    """Legal cards of the seat to act (TAROT-PLAY-2..5, TAROT-EXC-1, TAROT-CALL-6)."""
    cdef int seat = p.cur
    cdef uint64_t t = p.hand[seat][0]
    cdef uint64_t s = p.hand[seat][1]
    cdef uint64_t ex = t & EXBIT
    cdef uint64_t trumps = t & TRUMPS
    cdef uint64_t over, follow
    cdef int led = p.led                # TAROT-PLAY-3: EX does not define the suit
    cdef int w = p.wt
    if led < 0:
        out[0] = t
        out[1] = s
        if p.restrict_first and p.trick_no == 0 and p.ntrick == 0:
            # TAROT-CALL-6: not the called suit on the opening lead (EX lapses it)
            if (t & ~p.forbid[0]) | (s & ~p.forbid[1]):
                out[0] = t & ~p.forbid[0]
                out[1] = s & ~p.forbid[1]
        return
    if led < 21:
        # TAROT-PLAY-4.2: trump led -> overtrump W if possible, else any trump
        if trumps:
            if p.relax_trumps and not p.side[seat]:
                out[0] = relaxed_overtrump(p, trumps, w) | ex
                out[1] = 0
                return
            over = trumps & ~((<uint64_t>2 << w) - 1)
            out[0] = (over if over else trumps) | ex
            out[1] = 0
        else:
            out[0] = t
            out[1] = s
        return
    if ATOUT_CHECKED:
        tarot_invariant(led < 78 and w < 21 and p.ntrick < p.n, "legal_mask: trick state")
    follow = s & (SUIT0 << (14 * ((led - 22) // 14)))
    if follow:
        out[0] = ex                    # TAROT-PLAY-4.1 (+ EX, TAROT-EXC-1)
        out[1] = follow
    elif trumps:
        # TAROT-PLAY-4.3 / TAROT-PLAY-5: must trump, overtrump if possible
        if w >= 0 and p.relax_trumps and not p.side[seat]:
            out[0] = relaxed_overtrump(p, trumps, w) | ex
        elif w >= 0:
            over = trumps & ~((<uint64_t>2 << w) - 1)
            out[0] = (over if over else trumps) | ex
        else:
            out[0] = trumps | ex
        out[1] = 0
    else:
        out[0] = t                     # TAROT-PLAY-4.4
        out[1] = s


cdef int winner_index(int* cards, int k) noexcept nogil:
    """Index of the winning card among k played cards (TAROT-PLAY-6, TAROT-EXC-2);
    -1 if no card other than EX was played."""
    cdef int i, c, led = -1, best = -1, bi = -1, tb = -1, ti = -1
    for i in range(k):
        c = cards[i]
        if c == EXCUSE or c >= NCARDS:
            continue
        if c < 21:
            if c > tb:
                tb = c
                ti = i
        if led < 0:
            led = suit_of(c)
    if ti >= 0:
        return ti
    for i in range(k):
        c = cards[i]
        if c != EXCUSE and suit_of(c) == led and c > best:
            best = c
            bi = i
    return bi


cdef void finish_trick(Pos* p) noexcept nogil:
    """Resolve a complete trick: winner, piles with the Excuse rules, tricks counts,
    petit au bout (TAROT-PLAY-6, TAROT-EXC-3..6, TAROT-SCORE-3)."""
    cdef int n = p.n
    cdef int base = p.ply - n
    cdef int* cards = &p.played[base]
    cdef int wi = p.wi if p.force_wi < 0 else p.force_wi
    cdef Tally* t = &p.tally
    cdef int wseat = (t.leader + wi) % n
    cdef int wside = p.side[wseat]
    cdef int last = p.trick_no == p.total_tricks - 1
    cdef int i, c, exi = -1, tp = 0, tb = 0, has_petit = 0
    cdef int exseat, es, att_gain = 0, att_bgain = 0
    if ATOUT_CHECKED:
        tarot_invariant(0 <= wi < n and p.trick_no < MAXTRICKS,
                        "finish_trick: trick winner or number out of range")
    p.tsaved[p.trick_no] = p.tally
    p.force_wi = -1
    for i in range(n):
        c = cards[i]
        tp += PTS[c]
        tb += IS_BOUT[c]
        if c == EXCUSE:
            exi = i
        elif c == PETIT:
            has_petit = 1
    t.exc6 = 0
    if exi >= 0 and last:
        exseat = (t.leader + exi) % n
        es = p.side[exseat]
        if (es == 1 and t.def_tricks == 0) or (es == 0 and t.att_tricks == 0):
            # TAROT-EXC-6: EX wins the last trick for a side that won every trick
            t.exc6 = 1
            wseat = exseat
            wside = es
    if exi < 0 or t.exc6:
        if wside:
            att_gain = tp
            att_bgain = tb
    else:
        exseat = (t.leader + exi) % n
        es = p.side[exseat]
        if not last:
            if es == wside:
                if wside:
                    att_gain = tp
                    att_bgain = tb
            else:
                # TAROT-EXC-3/4: EX back to its owner, who gives a half-point card
                if wside:
                    att_gain = tp - 9 + 1
                    att_bgain = tb - 1
                else:
                    att_gain = 9 - 1
                    att_bgain = 1
        elif p.excuse_rule == 0:
            # TAROT-EXC-5: on the last trick EX changes side, no compensation
            if wside:
                att_gain = tp - 9
                att_bgain = tb - 1
            if es == 0:
                att_gain += 9
                att_bgain += 1
        else:
            # excuse_last_trick = to_trick_winner
            if wside:
                att_gain = tp
                att_bgain = tb
    t.att_pts += att_gain
    t.att_bouts += att_bgain
    if p.relax_discard:
        for i in range(n):
            if cards[i] >= NCARDS:
                t.owe[(t.leader + i) % n][wside] += 1
    if wside:
        t.att_tricks += 1
    else:
        t.def_tricks += 1
    if has_petit:
        t.petit_trick = p.trick_no
    if last:
        t.pb = 0
        if t.petit_trick == p.trick_no or (t.exc6 and t.petit_trick == p.trick_no - 1):
            t.pb = 1 if wside else -1            # TAROT-SCORE-3
    t.leader = wseat
    p.cur = wseat
    p.led = -1
    p.wt = -1
    p.wi = -1
    p.wc = -1
    p.ntrick = 0
    p.trick_no += 1


cdef void rdd_pay(Pos* p, int seat, int c, Saved* sv) noexcept nogil:
    """R_DD, PAY move c (PAYBASE + 32 S + j): the seat gives up every card of suit S
    it holds as deferred discards, its j richest (its highest: within a suit a higher
    card is never poorer) to the defence's tricks, the others to the attack's (each
    worth its points less the 1 its trick got when deferred)."""
    cdef int S = (c - PAYBASE) // 32, j = (c - PAYBASE) % 32, k
    cdef uint64_t cards = p.hand[seat][1] & (SUIT0 << (14 * S)), rest = cards
    for k in range(j):
        rest &= ~(<uint64_t>1 << highest_bit(rest))
    sv.pay = cards
    sv.pay_att = mask_points(0, rest) - popcount64(rest)
    p.tally.att_pts += sv.pay_att
    p.tally.owe[seat][0] -= j
    p.tally.owe[seat][1] -= popcount64(cards) - j
    p.live_pts -= mask_points(0, cards)
    p.hand[seat][1] &= ~cards
    p.live[1] &= ~cards
    p.side_live[p.side[seat]][1] &= ~cards


cdef void rdd_unpay(Pos* p, int seat, int c, Saved* sv) noexcept nogil:
    cdef int j = (c - PAYBASE) % 32
    cdef uint64_t cards = sv.pay
    p.tally.att_pts -= sv.pay_att
    p.tally.owe[seat][0] += j
    p.tally.owe[seat][1] += popcount64(cards) - j
    p.live_pts += mask_points(0, cards)
    p.hand[seat][1] |= cards
    p.live[1] |= cards
    p.side_live[p.side[seat]][1] |= cards


cdef inline int poorest_points(uint64_t h, int k) noexcept nogil:
    """The doubled points of the k poorest plain-suit cards of h (all of them if it
    holds fewer): pips 1, then jacks 3, knights 5, queens 7, kings 9 (TAROT-DECK-4)."""
    cdef int i, c, pts = 0
    cdef uint64_t level
    for i in range(5):
        if k <= 0:
            break
        level = h & PLAIN_LEVELS[i]
        c = popcount64(level)
        if c > k:
            c = k
        pts += c * (2 * i + 1)
        k -= c
    return pts


cdef int rdd_leftover(Pos* p) noexcept nogil:
    """R_DD at the end of the deal: the deferred discards still owed are the cards
    their seats still hold (plain-suit cards: an owing seat has no trump nor Excuse),
    the richest to the defence's tricks as the defence chooses; the doubled points the
    attack's share, the others, adds (each less the 1 its trick got: pips add nothing)."""
    cdef int s, rest, gain = 0
    for s in range(p.n):
        rest = popcount64(p.hand[s][1]) - p.tally.owe[s][0]
        if rest > 0:
            gain += poorest_points(p.hand[s][1], rest) - rest
    return gain


cdef inline void play_card(Pos* p, int c) noexcept nogil:
    cdef int seat = p.cur
    if ATOUT_CHECKED:
        tarot_invariant(0 <= c < NIDS and p.ply < MAXPLY and not is_over(p),
                        "play_card: card or ply out of range")
        tarot_invariant(c >= NCARDS or (p.hand[seat][card_word(c)] & card_bit(c)) != 0,
                        "play_card: card not in the hand of the seat to act")
    cdef Saved* sv = &p.saved[p.ply]
    sv.cur = p.cur
    sv.led = p.led
    sv.wt = p.wt
    sv.wi = p.wi
    sv.wc = p.wc
    cdef int side = p.side[seat]
    if c >= NCARDS:
        # R_DD: a deferred discard (PHANTOM), after paying a suit for a PAY move
        if c >= PAYBASE:
            rdd_pay(p, seat, c, sv)
    else:
        p.live_pts -= PTS[c]
        if c < 22:
            p.hand[seat][0] &= ~(<uint64_t>1 << c)
            p.live[0] &= ~(<uint64_t>1 << c)
            p.side_live[side][0] &= ~(<uint64_t>1 << c)
        else:
            p.hand[seat][1] &= ~(<uint64_t>1 << (c - 22))
            p.live[1] &= ~(<uint64_t>1 << (c - 22))
            p.side_live[side][1] &= ~(<uint64_t>1 << (c - 22))
    if c != EXCUSE and c < NCARDS:
        if p.led < 0:
            p.led = c
        if c < 21 and c > p.wt:
            p.wt = c
        # the trick's winner so far (TAROT-PLAY-6): the first card other than EX, then
        # any trump above it, or a higher card of its suit while no trump is down
        if p.wc < 0 or (c < 21 and (p.wc >= 22 or c > p.wc)) \
                or (p.wc >= 22 and SUIT[c] == SUIT[p.wc] and c > p.wc):
            p.wc = c
            p.wi = p.ntrick
    p.played[p.ply] = c
    p.ply += 1
    p.ntrick += 1
    p.cur += 1
    if p.cur == p.n:
        p.cur = 0
    if p.ntrick == p.n:
        finish_trick(p)


cdef inline void undo_card(Pos* p) noexcept nogil:
    if ATOUT_CHECKED:
        tarot_invariant(p.ply > p.start_ply, "undo_card: nothing to undo")
    p.ply -= 1
    cdef Saved* sv = &p.saved[p.ply]
    cdef int c = p.played[p.ply]
    if p.ntrick == 0:
        # the card completed a trick: put back the state finish_trick changed
        p.trick_no -= 1
        p.tally = p.tsaved[p.trick_no]
        p.ntrick = p.n - 1
    else:
        p.ntrick -= 1
    p.cur = sv.cur
    p.led = sv.led
    p.wt = sv.wt
    p.wi = sv.wi
    p.wc = sv.wc
    cdef int seat = p.cur
    cdef int side = p.side[seat]
    if c >= NCARDS:
        if c >= PAYBASE:
            rdd_unpay(p, seat, c, sv)
        return
    p.live_pts += PTS[c]
    if c < 22:
        p.hand[seat][0] |= <uint64_t>1 << c
        p.live[0] |= <uint64_t>1 << c
        p.side_live[side][0] |= <uint64_t>1 << c
    else:
        p.hand[seat][1] |= <uint64_t>1 << (c - 22)
        p.live[1] |= <uint64_t>1 << (c - 22)
        p.side_live[side][1] |= <uint64_t>1 << (c - 22)


cdef inline int f_points(Pos* p, int pts, int bouts) noexcept nogil:
    """sign*(base+m)*M + sign*H for a pile of `pts` doubled points and `bouts` bouts
    (TAROT-COUNT-2/4, TAROT-SCORE-1); nondecreasing in pts and bouts."""
    cdef int e = pts - R2[bouts if bouts < 3 else 3]
    cdef int m
    if e >= 0:
        m = (e + 1) // 2
        return (p.base + m) * p.mult + p.poignee
    m = (-e + 1) // 2
    return -(p.base + m) * p.mult - p.poignee


cdef inline int margin(int pts, int bouts) noexcept nogil:
    # E = P - R(B) in doubled points (TAROT-COUNT-4): the contract is made iff E >= 0;
    # nondecreasing in pts and bouts, like f_points
    return pts - R2[bouts if bouts < 3 else 3]


cdef inline int chelem_term(Pos* p) noexcept nogil:
    # TAROT-SCORE-5, at the end of the deal
    if p.chelem_announced:
        return 400 if p.tally.def_tricks == 0 else -200
    if p.tally.def_tricks == 0:
        return 200
    if p.tally.att_tricks == 0:
        return -200
    return 0


cdef inline int final_value(Pos* p) noexcept nogil:
    """Per-defender amount T of TAROT-SCORE-1 (unrounded) once the deal is over."""
    cdef Tally* t = &p.tally
    cdef int pts = t.att_pts + (rdd_leftover(p) if p.relax_discard else 0)
    if p.objective == OBJ_MARGIN:
        return margin(pts, t.att_bouts)
    return f_points(p, pts, t.att_bouts) + t.pb * 10 * p.pb_mult + chelem_term(p)


cdef inline int petit_au_bout_open(Pos* p, int side) noexcept nogil:
    """At a trick boundary of a deal ``side`` has swept so far: can the Petit still
    end au bout for it (TAROT-SCORE-3)? T1 still in a hand, or played in the trick
    just finished with one trick left that the side's Excuse can win (TAROT-EXC-6)."""
    if p.live[0] & (<uint64_t>1 << PETIT):
        return 1
    return p.tally.petit_trick == p.trick_no - 1 and p.trick_no == p.total_tricks - 1 \
        and (p.side_live[side][0] & EXBIT) != 0


cdef inline int sweep_hope(Pos* p, int side, int x) noexcept nogil:
    """Score classes (sweep probes): at a trick boundary, can ``side`` still take every
    trick and end with T at or below x (the defence, side 0) or at or above x (the
    attack)? 0 proves it cannot: the other side has won a trick, or one of its seats
    has a sure trump trick (a trump no distinct higher trump of ``side`` can be
    matched to, seat_sure_trumps; two if ``side`` holds the Excuse), or T's best case in a sweep (the
    chelem term, petit au bout if still open, the attack's pile as it is for a
    defence sweep -- its piles only grow -- or with every live card for an attack
    sweep) is on the wrong side of x."""
    cdef int best
    cdef uint64_t t = p.live[0] & TRUMPS
    if (p.tally.att_tricks if side == 0 else p.tally.def_tricks) > 0:
        return 0
    # (one such trick may be the last, which the side's Excuse takes: TAROT-EXC-6)
    if t and sure_trump_tricks(p, 1 - side, p.side_live[side][0] & TRUMPS) \
            > ((p.side_live[side][0] & EXBIT) != 0):
        return 0
    if side == 0:
        best = f_points(p, p.tally.att_pts, p.tally.att_bouts) - 200 \
            - 10 * p.pb_mult * petit_au_bout_open(p, 0)
        return best <= x
    best = f_points(p, p.tally.att_pts + p.live_pts,
                    p.tally.att_bouts + popcount64(p.live[0] & BOUTS0)) \
        + (400 if p.chelem_announced else 200) + 10 * p.pb_mult * petit_au_bout_open(p, 1)
    return best >= x


cdef int sweep_lowest(Pos* p, uint64_t legal1, int* moves, int k) noexcept nogil:
    """Sweep probes, the refuting side to play to a trick whose winning card so far
    beats all its legal cards of a plain suit: of that suit only the lowest. Whichever
    it plays the trick's winner stays, and keeping the higher card is never worse for
    the side that wants to win a trick or spoil the sweep: a plain card's rank binds no
    other seat's play (only trumps must be overtrumped, TAROT-PLAY-4), so playing the
    kept higher card wherever the other line plays the lower one leaves every other
    seat the same choices and each trick's outcome the same or won; and the points it
    gives a lost trick are not in a sweep's T (only the attack's pile is, and a
    defence sweep's attack pile takes no lost trick). Not the trumps (overtrumping
    changes the other seats' choices)."""
    cdef int i, j = 0, c, su, wc = p.wc
    cdef uint64_t blk, low = 0, beaten = 0
    for su in range(4):
        blk = legal1 & (SUIT0 << (14 * su))
        if not blk:
            continue
        # the winner beats the suit's highest legal card: a trump, or a higher card
        # of its own suit, or any card of another suit (a discard)
        if wc < 21 or SUIT[wc] != su or wc - 22 > highest_bit(blk):
            beaten |= blk
            low |= blk & (~blk + 1)
    if not beaten:
        return k
    for i in range(k):
        c = moves[i]
        if c >= 22 and c < NCARDS and (beaten >> (c - 22)) & 1:
            # the suit's lowest in the place of its first card searched
            blk = low & (SUIT0 << (14 * SUIT[c]))
            if not blk:
                continue
            low &= ~blk
            c = 22 + lowest_bit(blk)
        moves[j] = c
        j += 1
    while low:
        moves[j] = 22 + lowest_bit(low)
        low &= low - 1
        j += 1
    return j


cdef inline int sweep_rest(Pos* p, int side, int tp, int tb) noexcept nogil:
    """The extreme T of the ends ``side`` does not sweep (sweep_rest_bound): the
    least for the defence (the attack's pile as it is, the petit au bout against it,
    the chelem term's least outside a defence sweep), the greatest for the attack
    (every live card and the current trick's ``tp`` points / ``tb`` bouts)."""
    cdef int c = -200 if p.chelem_announced else 0
    if side == 0:
        return f_points(p, p.tally.att_pts, p.tally.att_bouts) - 10 * p.pb_mult + c
    return f_points(p, p.tally.att_pts + p.live_pts + tp,
                    p.tally.att_bouts + popcount64(p.live[0] & BOUTS0) + tb) \
        + 10 * p.pb_mult + c


cdef inline int sweep_final(Pos* p, int side, int x) noexcept nogil:
    """A finished deal: did ``side`` take every trick with T on its side of x?"""
    cdef int v = f_points(p, p.tally.att_pts, p.tally.att_bouts) \
        + p.tally.pb * 10 * p.pb_mult + chelem_term(p)
    if side == 0:
        return p.tally.att_tricks == 0 and v <= x
    return p.tally.def_tricks == 0 and v >= x


cdef inline int max_masters(Pos* p, int side, uint64_t other_trumps) noexcept nogil:
    # the most trumps above all of other_trumps held by one seat of the side
    cdef uint64_t above = TRUMPS
    cdef int s, c, best = 0
    if other_trumps:
        above = TRUMPS & ~((<uint64_t>2 << highest_bit(other_trumps)) - 1)
    for s in range(p.n):
        if p.side[s] == side:
            c = popcount64(p.hand[s][0] & above)
            if c > best:
                best = c
    return best


cdef int seat_sure_trumps(Pos* p, int s, uint64_t other_trumps) noexcept nogil:
    cdef int last
    return seat_sure_trumps_at(p, s, other_trumps, &last)


cdef int seat_sure_trumps_at(Pos* p, int s, uint64_t other_trumps, int* last) noexcept nogil:
    # The tricks seat s surely wins with its trumps: each of its trumps is played to
    # some trick and loses it only to a higher trump of the other side in that trick (a
    # plain card never beats a trump, TAROT-PLAY-6; a partner's higher trump keeps the
    # trick for the side), and each of the other side's trumps falls in one trick only.
    # So the seat wins at least its trumps that no distinct higher opposing trump can
    # be matched to: going down the live trumps, an opposing trump is a killer in
    # reserve, a trump of the seat uses one up or is a sure trick (this greedy matching
    # is a maximum one). Masters (max_masters) are the case of no killer above.
    # ``last``: the lowest trump counted sure (-1: none); the count reads only the
    # order of the live trumps down to it (bounds_rel)
    cdef int c, avail = 0, sure = 0
    cdef uint64_t own = p.hand[s][0] & TRUMPS
    cdef uint64_t t = own | other_trumps
    last[0] = -1
    while t:
        c = highest_bit(t)
        t &= ~(<uint64_t>1 << c)
        if (own >> c) & 1:
            if avail:
                avail -= 1
            else:
                sure += 1
                last[0] = c
        else:
            avail += 1
    return sure


cdef int sure_trump_tricks(Pos* p, int side, uint64_t other_trumps) noexcept nogil:
    # the most tricks one seat of the side surely wins with its trumps
    cdef int s, c, best = 0
    for s in range(p.n):
        if p.side[s] == side:
            c = seat_sure_trumps(p, s, other_trumps)
            if c > best:
                best = c
    return best


cdef int quick_tricks(Pos* p, int* count) noexcept nogil:
    """The leader's quick tricks in the plain suits (DDS's quick tricks): in each suit,
    the run of top live cards he holds. He cashes them from the top and keeps the lead
    as long as every other seat holding trumps must follow (TAROT-PLAY-4: a void seat
    with trumps must trump, and a partner's trump would take the lead); seats without
    trumps cannot take them. One more trick is his side's where only partners could
    trump: the lead may pass, so it ends the sequence. Returns the doubled points of
    his cards in those tricks, ``count`` their number."""
    cdef int L = p.tally.leader, s, o, c, q, k, m_all, m_opp, pts = 0, extra = 0
    cdef uint64_t sm, run
    cdef int side = p.side[L]
    count[0] = 0
    for s in range(4):
        sm = p.live[1] & (SUIT0 << (14 * s))
        if not (p.hand[L][1] & sm):
            continue
        m_all = 99
        m_opp = 99
        for o in range(p.n):
            if o != L and (p.hand[o][0] & TRUMPS):
                k = popcount64(p.hand[o][1] & sm)
                if k < m_all:
                    m_all = k
                if p.side[o] != side and k < m_opp:
                    m_opp = k
        run = sm
        q = 0
        while run and q < m_opp:
            c = highest_bit(run)
            if not (p.hand[L][1] >> c) & 1 or (p.relax and (LOW1 >> c) & 1):
                break             # (relaxed: a pip may lose to any other pip)
            if q < m_all:
                pts += PTS[22 + c]
                count[0] += 1
            elif PTS[22 + c] + 1 > extra:
                extra = PTS[22 + c] + 1     # its card, and a count of 1 for the trick
                break
            else:
                break
            q += 1
            run &= ~(<uint64_t>1 << c)
    if extra:
        pts += extra - 1
        count[0] += 1
    return pts


cdef inline int side_trick_credit(Pos* p, int side, uint64_t own0, uint64_t other0,
                                  int lead_pts, int lead_q, int apart,
                                  int exc6_safe, int* tricks) noexcept nogil:
    # doubled points surely won by `side` in its sure tricks (value_bounds): the master
    # trumps' tricks (n each), or, for the leader's side, the leader's quick tricks
    # (his cards' points and 1 for each other card) then his own master trumps; with
    # sure_match, the trumps no opposing trump can beat count as master trumps
    # (seat_sure_trumps). ``tricks`` (if not NULL): how many tricks the credit counts
    cdef int k = 0, kl = 0, credit, lead
    cdef int L = p.tally.leader
    cdef int trumps_sure = (own0 & TRUMPS) != 0 and exc6_safe
    cdef uint64_t other_t = other0 & TRUMPS, above = TRUMPS
    if trumps_sure:
        k = (sure_trump_tricks(p, side, other_t) if p.sure_match
             else max_masters(p, side, other_t))
    credit = p.n * k
    if tricks != NULL:
        tricks[0] = k
    if lead_q > 0 and p.side[L] == side:
        if trumps_sure:
            # the leader's own sure trump tricks, after his quick tricks
            if p.sure_match:
                kl = seat_sure_trumps(p, L, other_t)
            else:
                if other_t:
                    above = TRUMPS & ~((<uint64_t>2 << highest_bit(other_t)) - 1)
                kl = popcount64(p.hand[L][0] & above)
        lead = lead_pts + (p.n - 1) * lead_q + p.n * kl
        if lead > credit:
            credit = lead
            if tricks != NULL:
                tricks[0] = lead_q + kl
    # T21 or the Petit credited apart (``apart`` of them) may be among these tricks'
    # cards, each counted 1 here: not twice
    credit -= apart if apart < credit else credit
    return credit


cdef void rdd_owed(Pos* p, int att_k, int* gain, int* loss) noexcept nogil:
    """R_DD: what the discards still owed surely settle. A seat owing o1 discards to
    the attack's tricks and o0 to the defence's pays them from the cards it holds now
    (PAY moves or what it holds at the end, rdd_pay / rdd_leftover; later deferrals
    only add to them): at least o1 of its cards go to the attack, each adding its
    points less the 1 its trick got, and at least o0 others to the defence, never to
    the attack. So the attack gains at least the o1 poorest cards' points less 1 each
    (``gain``), and of the points it could still get, at least the o0 poorest cards'
    points and 1 for each of the o1 others are not to be had (``loss``)."""
    cdef int s, o0, o1, k
    gain[0] = 0
    loss[0] = 0
    for s in range(p.n):
        o0 = p.tally.owe[s][0]
        o1 = p.tally.owe[s][1]
        # a defender that defers (no trumps nor Excuse: every owing seat is one) also
        # gives a card, followed or owed, to each of the att_k tricks the attack surely
        # takes (value_bounds credited 1 for it)
        k = att_k if not p.side[s] and not (p.hand[s][0] & (TRUMPS | EXBIT)) else 0
        if o0 + o1 + k == 0:
            continue
        gain[0] += poorest_points(p.hand[s][1], o1 + k) - o1 - k
        loss[0] += poorest_points(p.hand[s][1], o0) + o1


cdef void value_bounds(Pos* p, int* lo, int* hi) noexcept nogil:
    """Bounds on the final T reachable from any position: every card not yet
    credited may still go either way (the attack never loses captured points), except
    what is already certain: a side holding the highest live trump wins a trick (it
    wins the trick it falls in; only the opponents' EX on the last trick of a chelem
    could take that trick, TAROT-EXC-6), so the other side cannot make a chelem; T21
    goes to its holder's side on the same condition.

    The bounds are nested along the play (a later boundary's interval lies inside an
    earlier one's: captured points only grow, live points only shrink, and each "sure"
    fact persists until it is realised), which is why static_eval clamped to them keeps
    them valid bounds of the horizon search's truncated game."""
    cdef uint64_t l0 = p.live[0], l1 = p.live[1], top = 0, trumps
    cdef uint64_t a0 = p.side_live[1][0], d0 = p.side_live[0][0]
    cdef int i, c
    cdef int base = p.ply - p.ntrick
    cdef int lp = p.live_pts
    for i in range(p.ntrick):      # the current trick's cards are still to be won
        c = p.played[base + i]
        lp += PTS[c]
        if c < 22:
            l0 |= <uint64_t>1 << c
        elif c < NCARDS:
            l1 |= <uint64_t>1 << (c - 22)
    cdef int lb = popcount64(l0 & BOUTS0)
    cdef int pbpos = 0
    cdef int cmax, cmin
    cdef int att_sure = 0, def_sure = 0     # side surely wins a trick
    cdef int lq, lpts, ca, cd, att_k = 0
    cdef int hi_p = p.tally.att_pts + lp, hi_b = p.tally.att_bouts + lb
    cdef int lo_p = p.tally.att_pts, lo_b = p.tally.att_bouts
    # TAROT-EXC-6 (the other side's Excuse taking the last trick) needs that side to
    # have won every trick before: a side that has won one is safe from it
    cdef int att_safe = not (d0 & EXBIT) or (p.sure_won and p.tally.att_tricks > 0)
    cdef int def_safe = not (a0 & EXBIT) or (p.sure_won and p.tally.def_tricks > 0)
    trumps = l0 & TRUMPS
    if p.ntrick == 0 and trumps:
        top = <uint64_t>1 << highest_bit(trumps)
        if (d0 & top) and def_safe:
            def_sure = 1
            if top == (<uint64_t>1 << MONDE):
                hi_p -= 9
                hi_b -= 1
        elif (a0 & top) and att_safe:
            att_sure = 1
            if top == (<uint64_t>1 << MONDE):
                lo_p += 9
                lo_b += 1
    cdef int apart_a = 1 if att_sure and top == (<uint64_t>1 << MONDE) else 0
    cdef int apart_d = 1 if def_sure and top == (<uint64_t>1 << MONDE) else 0
    if p.sure_petit and p.ntrick == 0 and (l0 & 1):
        # the Petit is safe when the other side holds no trump: it is a trump, so the
        # trick it falls in is won by a trump of its side (TAROT-PLAY-6), TAROT-EXC-6
        # aside (att_safe / def_safe)
        if (a0 & 1) and not (d0 & TRUMPS) and att_safe:
            lo_p += 9
            lo_b += 1
            apart_a += 1
        elif (d0 & 1) and not (a0 & TRUMPS) and def_safe:
            hi_p -= 9
            hi_b -= 1
            apart_d += 1
    if p.sure_trumps and p.ntrick == 0:
        # master trumps: a trump above every trump of the other side wins the trick it
        # falls in (TAROT-PLAY-6; the other side's Excuse could take a last trick by
        # TAROT-EXC-6, hence the Excuse condition). One seat's cards fall in distinct
        # tricks, so the side surely wins as many tricks as its seat with the most
        # master trumps holds, and every card is worth at least 1 (doubled): n points
        # a trick (the Excuse's owner gives a half-point card for it, TAROT-EXC-3).
        # The leader's quick tricks (quick_tricks) are more tricks of his own, worth
        # his cards and at least 1 for each other card, then his master trumps (not
        # on the 5p opening lead, whose called suit may be forbidden, TAROT-CALL-6). A T21 credited above is one of
        # these tricks' cards: 1 less, its own card counted twice.
        lq = 0
        lpts = 0
        if p.sure_lead and p.total_tricks - p.trick_no >= 2 \
                and not (p.restrict_first and p.trick_no == 0):
            lpts = quick_tricks(p, &lq)
            if p.relax_discard and (p.tally.owe[p.tally.leader][0]
                                    + p.tally.owe[p.tally.leader][1]) > 0:
                # R_DD: an owing leader holds more cards than tricks are left
                lq = 0
                lpts = 0
            # the leader's Excuse, credited below as played in this trick, then waits
            # for the trick after his quick tricks, which must not be the last
            if lq > 0 and (p.hand[p.tally.leader][0] & EXBIT) \
                    and lq + 2 > p.total_tricks - p.trick_no:
                lq = 0
        ca = side_trick_credit(p, 1, a0, d0, lpts, lq, apart_a, att_safe, &att_k)
        cd = side_trick_credit(p, 0, d0, a0, lpts, lq, apart_d, def_safe, NULL)
        lo_p += ca
        hi_p -= cd
    if p.sure_ex and p.ntrick == 0 and p.total_tricks - p.trick_no >= 2 and (l0 & EXBIT):
        # the Excuse stays with its owner's side (TAROT-EXC-3): its owner can play it in
        # this trick, not the last; if the other side wins that trick it gets only the
        # half-point card given in exchange, so 8 of its 9 doubled points and its bout
        # are sure for the owner's side (the last-trick rules EXC-5/6 never apply)
        if a0 & EXBIT:
            lo_p += 8
            lo_b += 1
        else:
            hi_p -= 8
            hi_b -= 1
    cdef int og, ol
    if p.relax_discard and p.sure_owed:
        rdd_owed(p, att_k if p.sure_owed_tricks else 0, &og, &ol)
        lo_p += og
        hi_p -= ol
    if (l0 & 1) or ((l0 & EXBIT) and p.tally.petit_trick == p.trick_no - 1
                    and p.trick_no == p.total_tricks - 1):
        pbpos = 1
    if p.objective == OBJ_MARGIN:
        hi[0] = margin(hi_p, hi_b)
        lo[0] = margin(lo_p, lo_b)
        return
    if p.chelem_announced:
        cmax = 400 if (p.tally.def_tricks == 0 and not def_sure) else -200
        cmin = -200
    else:
        cmax = 200 if (p.tally.def_tricks == 0 and not def_sure) else 0
        cmin = -200 if (p.tally.att_tricks == 0 and not att_sure) else 0
    hi[0] = f_points(p, hi_p, hi_b) + pbpos * 10 * p.pb_mult + cmax
    lo[0] = f_points(p, lo_p, lo_b) - pbpos * 10 * p.pb_mult + cmin


cdef int last_trick_value(Pos* p) noexcept nogil:
    """Exact final T when one trick is left at a trick boundary: every seat holds one
    card, so the trick is forced; it is played out and taken back."""
    cdef int i, seat
    for i in range(p.n):
        seat = p.cur
        if p.hand[seat][0]:
            play_card(p, lowest_bit(p.hand[seat][0]))
        else:
            play_card(p, 22 + lowest_bit(p.hand[seat][1]))
    cdef int v = final_value(p)
    for i in range(p.n):
        undo_card(p)
    return v


cdef int fitted_split(Pos* p, int rp, int A, int D, int lead_side, int mtr_a, int mtr_d,
                      int mast, int cut, int hunted) noexcept nogil:
    """static_eval's share of the attack in the live non-bout points ``rp``, as a linear
    form of the position's features (``set_eval``; the terms of EVAL_TERMS): fitted to
    exact margins, it replaces the power split ``rp * A / (A + D)``, which favours the
    attack and spreads too far (benchmarks/static_eval_fit.py, issue 28). The counts
    static_eval has made for the split come in: trumps above all of the other side's
    (mtr), plain-suit masters and cuts (attack minus defence), and whether its Petit
    rule calls the attack's Petit hunted. Every term is invariant
    under the table key's relative-rank renaming, like the split."""
    cdef uint64_t a0 = p.side_live[1][0], a1 = p.side_live[1][1]
    cdef uint64_t d0 = p.side_live[0][0], d1 = p.side_live[0][1]
    cdef uint64_t at = a0 & TRUMPS, dt = d0 & TRUMPS
    cdef int tr_a = popcount64(at & ~(<uint64_t>1)), tr_d = popcount64(dt & ~(<uint64_t>1))
    cdef double split = rp * A / <double>(A + D) if A + D > 0 else rp / 2.0
    cdef double* w = p.eval_w
    cdef double x = (w[0] + w[1] * split + w[2] * rp
                     + w[3] * (mask_points(a0 & ~BOUTS0, a1) - mask_points(d0 & ~BOUTS0, d1))
                     + w[4] * (tr_a - tr_d) + w[5] * (mtr_a - mtr_d) + w[6] * mast
                     + w[7] * cut + w[8] * lead_side
                     + w[9] * (popcount64(a1 & KINGS1) - popcount64(d1 & KINGS1))
                     + w[10] * (a0 & 1) + w[11] * (d0 & 1) + w[12] * hunted)
    return <int>floor(x + 0.5)


# 5-point Gauss-Hermite rule for the standard normal (probabilists'): nodes, weights
cdef double GH_X[5]
cdef double GH_W[5]
GH_X[:] = [-2.856970013872806, -1.355626179974266, 0.0, 1.355626179974266,
           2.856970013872806]
GH_W[:] = [0.011257411327721, 0.222075922005613, 0.533333333333333, 0.222075922005613,
           0.011257411327721]


cdef int soft_points_sum(Pos* p, int pts, int bouts) noexcept nogil:
    """f_points' expectation when the attack's final pile is ``pts`` give or take a
    normal error of ``eval_sd`` doubled points: a leaf near the threshold is worth
    what the contract is worth on average, not one side of TAROT-SCORE-1's jump of
    2 x 25 x the multiplier. Nondecreasing in pts, like f_points."""
    cdef double v = 0.0
    cdef int i
    for i in range(5):
        v += GH_W[i] * f_points(p, pts + <int>floor(p.eval_sd * GH_X[i] + 0.5), bouts)
    return <int>floor(v + 0.5)


cdef inline int soft_points(Pos* p, int pts, int bouts) noexcept nogil:
    # soft_points_sum from the table set_eval filled (it depends on the margin only)
    cdef int e = margin(pts, bouts)
    if -SOFT_HALF <= e < SOFT_HALF:
        return p.soft_tab[e + SOFT_HALF]
    return soft_points_sum(p, pts, bouts)


cdef int static_eval(Pos* p) noexcept nogil:
    """Static estimate of the final T at a trick boundary (the horizon search's leaf
    value), on the scale of ``final_value``: exact when the deal is over or one trick
    is left (that trick is forced), otherwise the attack's pile so far plus an estimate
    of how the cards still in play will split, scored by the real objective
    (threshold by bouts, margin, petit au bout, chelem; TAROT-SCORE-1/3/5).

    How the live cards are expected to split, from how Tarot is played:
      * T21 always wins its trick (TAROT-PLAY-6): it goes to its holder's side;
      * the Excuse stays with its owner's side (TAROT-EXC-3; the half-point exchange
        and the last-trick rule TAROT-EXC-5 are ignored: it is played before);
      * the Petit is safe only if its holder's side controls trumps (the opponents
        have none left, or its side holds the top trump and at least as many trumps
        as the opponents); otherwise it is hunted and goes to the opponents. When the
        opponents have no trump left, its holder's side is expected to bring it to the
        last trick (petit au bout, TAROT-SCORE-3);
      * every other point goes to each side in proportion to its trick-taking power:
        4 per trump above all of the opponents' trumps (a sure trick), 2 per other
        trump, 3 per master (highest live card) of a plain suit, 2 per plain suit a
        seat holding trumps is void in (a cut), at most 2 per trump of that seat;
      * chelem (TAROT-SCORE-5): a side is sure to win every remaining trick when it has
        won all tricks so far and its leader holds only trumps (and maybe the Excuse)
        all above every other live trump: he cashes them from the top (the Excuse last,
        TAROT-EXC-6). That case is scored as certain (all live points but the
        opponents' Excuse, his T1 led last is petit au bout); otherwise no chelem is
        expected, except that an announced chelem keeps +100 (between +400 and -200)
        while the attack has won every trick and holds all the live trumps.

    Everything used is invariant under the transposition key's relative-rank
    renaming (holders, trump order, masters, voids, honours and bouts, the leader, the
    "side won a trick" flags), the estimate does not depend on the points captured so
    far except through f_points (nondecreasing), and the result is clamped to
    ``value_bounds`` of the position: leaves stay inside the exact value's range and
    the core's pruning bounds (nested along the play) stay valid for the truncated
    game."""
    cdef int n = p.n
    cdef int i, s, k, lead_side, sure = -1, won_all, hs, own, opp, safe, pbs = 0
    cdef int est_p = p.tally.att_pts, est_b = p.tally.att_bouts, chel = 0, rp, A = 0, D = 0
    cdef int lo, hi, v, ex_other, nt, nv, mtr_a, mtr_d, mast = 0, cut = 0, hunted = 0
    cdef uint64_t a0 = 0, a1 = 0, d0 = 0, d1 = 0, l0, l1, at, dt, lh0, others, sm, h0
    cdef uint64_t hs_tr, op_tr, lsuits
    if is_over(p):
        return final_value(p)
    k = p.total_tricks - p.trick_no
    if k == 1:
        return last_trick_value(p)
    a0 = p.side_live[1][0]
    a1 = p.side_live[1][1]
    d0 = p.side_live[0][0]
    d1 = p.side_live[0][1]
    l0 = a0 | d0
    l1 = a1 | d1
    at = a0 & TRUMPS
    dt = d0 & TRUMPS
    lead_side = p.side[p.tally.leader]
    won_all = (p.tally.def_tricks == 0) if lead_side else (p.tally.att_tricks == 0)
    lh0 = p.hand[p.tally.leader][0]
    if won_all and p.hand[p.tally.leader][1] == 0 and (lh0 & TRUMPS):
        others = l0 & TRUMPS & ~lh0
        if others == 0 or highest_bit(others) < lowest_bit(lh0 & TRUMPS):
            sure = lead_side
    if sure >= 0:
        # the leader's side wins every trick left
        ex_other = ((d0 if sure else a0) & EXBIT) != 0
        if sure:
            est_p += mask_points(l0, l1) - (8 if ex_other else 0)
            est_b += popcount64(l0 & BOUTS0) - ex_other
            chel = 400 if p.chelem_announced else 200
        else:
            if ex_other:
                est_p += 8
                est_b += 1
            chel = -200
        if lh0 & 1:
            pbs = 1 if sure else -1
    else:
        if l0 & (<uint64_t>1 << MONDE):          # TAROT-PLAY-6
            if at & (<uint64_t>1 << MONDE):
                est_p += 9
                est_b += 1
        if a0 & EXBIT:                            # TAROT-EXC-3
            est_p += 9
            est_b += 1
        if l0 & 1:                                # the Petit
            hs = 1 if (a0 & 1) else 0
            hs_tr = (at if hs else dt) & ~(<uint64_t>1)
            op_tr = dt if hs else at
            own = popcount64(hs_tr)
            opp = popcount64(op_tr)
            safe = opp == 0 or (own >= opp and highest_bit(hs_tr) > highest_bit(op_tr))
            if (hs == 1) == (safe != 0):
                est_p += 9
                est_b += 1
            hunted = hs == 1 and not safe
            if opp == 0:
                pbs = 1 if hs else -1
        # trick-taking power of each side: 4 per trump above all of the opponents'
        # trumps, 2 per other trump
        nt = popcount64(at)
        mtr_a = popcount64(at >> (highest_bit(dt) + 1)) if dt else nt
        A += 2 * nt + 2 * mtr_a
        nt = popcount64(dt)
        mtr_d = popcount64(dt >> (highest_bit(at) + 1)) if at else nt
        D += 2 * nt + 2 * mtr_d
        for s in range(4):
            sm = l1 & (SUIT0 << (14 * s))
            if sm:
                if (a1 >> highest_bit(sm)) & 1:
                    A += 3
                    mast += 1
                else:
                    D += 3
                    mast -= 1
        lsuits = suits_present(l1)
        for i in range(n):
            h0 = p.hand[i][0] & TRUMPS
            if h0 == 0:
                continue
            nv = popcount64(lsuits & ~suits_present(p.hand[i][1]))
            nt = popcount64(h0)
            if nv > nt:
                nv = nt
            if p.side[i]:
                A += 2 * nv
                cut += nv
            else:
                D += 2 * nv
                cut -= nv
        rp = p.live_pts - 9 * popcount64(l0 & BOUTS0)   # a bout is worth 9 (doubled)
        if p.eval_fit:
            est_p += fitted_split(p, rp, A, D, lead_side, mtr_a, mtr_d, mast, cut,
                                  hunted)
        elif A + D > 0:
            est_p += (rp * A + (A + D) // 2) // (A + D)
        else:
            est_p += rp // 2
        if p.chelem_announced:
            chel = 100 if (p.tally.def_tricks == 0 and dt == 0) else -200
    if est_b > 3:
        est_b = 3
    if p.objective == OBJ_MARGIN:
        v = margin(est_p, est_b)
    else:
        v = (soft_points(p, est_p, est_b) if p.eval_sd > 0 and sure < 0
             else f_points(p, est_p, est_b)) + pbs * 10 * p.pb_mult + chel
    value_bounds(p, &lo, &hi)
    if v < lo:
        v = lo
    if v > hi:
        v = hi
    return v


cdef inline uint64_t xorshift(uint64_t* s) noexcept nogil:
    cdef uint64_t x = s[0]
    x ^= x << 13
    x ^= x >> 7
    x ^= x << 17
    s[0] = x
    return x


cdef inline int pick_random(uint64_t* m, uint64_t* rng) noexcept nogil:
    """A uniformly random card of a two-word mask."""
    cdef int n0 = popcount64(m[0])
    cdef int n1 = popcount64(m[1])
    cdef int k = <int>(xorshift(rng) % <uint64_t>(n0 + n1))
    cdef uint64_t w
    if k < n0:
        w = m[0]
        while k:
            w = clear_lowest(w)
            k -= 1
        return lowest_bit(w)
    k -= n0
    w = m[1]
    while k:
        w = clear_lowest(w)
        k -= 1
    return 22 + lowest_bit(w)


cdef int playout(Pos* p, uint64_t* rng) noexcept nogil:
    """Random legal play to the end of the deal; returns the final T (position kept
    at the end: the caller undoes or restores)."""
    cdef uint64_t m[2]
    while not is_over(p):
        legal_mask(p, m)
        play_card(p, pick_random(m, rng))
    return final_value(p)


cdef inline int next_card(uint64_t* m) noexcept nogil:
    # pop the lowest card of a two-word mask
    cdef int c
    if m[0]:
        c = lowest_bit(m[0])
        m[0] = clear_lowest(m[0])
        return c
    c = lowest_bit(m[1])
    m[1] = clear_lowest(m[1])
    return 22 + c


# ------------------------------------------------------------------ search ----

cdef struct TTEntry:
    # Bounds on the final T for a position keyed WITHOUT the attack's captured points
    # P0: T is nondecreasing in P0 (future gains do not depend on it), so a lower bound
    # proven at P0 = lb_p holds for every P0 >= lb_p, an upper bound proven at ub_p for
    # every P0 <= ub_p. Under the margin objective E = P0 + (what the rest of the deal
    # brings - R(B)), and the best play of the rest does not depend on P0: bounds are
    # stored as E - P0 and hold for every P0 (store_offsets).
    uint64_t key
    uint64_t check  # a second, independent hash of the same position: a hit needs both
    int16_t lb
    int16_t ub
    int16_t lb_p
    int16_t ub_p
    uint8_t best
    uint8_t depth    # replacement rank: cards left, or (tt_effort) 2 + log2(nodes spent)
    uint16_t hon    # shape entries (quasi-symmetry): the stored position's live honours
    uint32_t gen    # live only while equal to its table's generation (0: never written)


cdef struct PEntry:
    # A partition-search entry (``use_part``), the same 32 bytes as a TTEntry so that
    # both live in one pooled table. It holds bounds for a *class* of positions: those
    # with the same group (leader, history flags, every hand's point cards T1/T21/EX
    # and honours, every hand's number of low cards per suit) and the same holders of
    # the low cards the search found to matter, which are, per suit, the top live low
    # cards down to the lowest one that mattered (``mask``, in the hands' pattern
    # space, see part_key). The other low cards are interchangeable: each is worth a
    # half point and decided nothing by its rank in the subtree that proved the bounds.
    uint64_t gcheck  # a second hash of the group, mixed with the table generation
    uint64_t pat     # a hash of the kept pattern (the group key, mask, hands & mask)
    uint64_t mask    # bits 0..58: the kept low cards' pattern bits
    int16_t lb
    int16_t ub
    uint8_t lb_p     # as TTEntry's lb_p/ub_p (doubled points <= 182; 255: none)
    uint8_t ub_p
    uint8_t best
    uint8_t pad      # (the tag, generation byte and depth live in the table's meta array)


cdef enum:
    XBUCKET = 4                        # entries per exact-position bucket (128 bytes)
    PBUCKET = 16                       # entries per class (group) bucket (512 bytes)
cdef uint64_t PAT_MASK = (<uint64_t>1 << 59) - 1
cdef uint64_t SHAPE_FLAG = <uint64_t>1 << 63      # a partition-table shape entry's mask
# a table of 2**bits entries is one allocation: the entries, then one 32-bit meta word
# per entry for partition entries (part_meta), so that scanning a 16-entry bucket
# reads one cache line of meta words, not eight of entries
cdef size_t TT_BYTES_PER_ENTRY = sizeof(TTEntry) + sizeof(uint32_t)


cdef inline size_t table_bytes(int bits) noexcept nogil:
    # a table of 2**bits entries: the entries, then the partition meta words (pmeta)
    return TT_BYTES_PER_ENTRY * ((<size_t>1) << bits)


cdef inline uint32_t part_meta(uint64_t gcheck, uint32_t gen, int depth) noexcept nogil:
    # bits 0..15: a tag from the group check word; 16..23: the generation's low byte;
    # 24..31: the replacement rank (tricks left, or with tt_effort the rank of the nodes
    # spent, as TTEntry.depth). Only a full gcheck/pat match makes a hit.
    return <uint32_t>(gcheck >> 48) | ((gen & 0xFF) << 16) | (<uint32_t>depth << 24)
cdef uint64_t XSALT = <uint64_t>0x6A09E667F3BCC909   # exact entries' pattern hash seed
cdef uint64_t QSALT = <uint64_t>0xBB67AE8584CAA73B   # shape entries' key seed
cdef uint64_t SWSALT = <uint64_t>0x3C6EF372FE94F82B  # sweep probes' key seed


# Quasi-symmetry (``quasi``, after Kupferschmid and Helmert's Skat solver; the Belote
# core's shape entries): two trick-boundary positions whose keys differ only in which
# honours are live -- the same holders of the live cards in power order per suit, the
# same counts, bouts, leader, flags and relaxed state -- have isomorphic game trees (a
# card maps to the card of the same suit and power position: same holder, same tricks
# won), so their margins E - P0 differ by what the matched cards that end in the
# attack's tricks are worth more or less: the current position's is at least the
# representative's less what its matched cards are worth less (HON_LESS), at most the
# representative's plus what they are worth more (HON_MORE). Under T (no 1-Lipschitz
# function of the points: the multiplier, the made/fail jump) the distance moves the
# points a bound was proven at instead: T is nondecreasing in the attack's final points
# P0 + rest, so a lower bound proven for P0 >= lb_p holds for the current position from
# lb_p + less on, an upper one up to ub_p - more. Every plain-table store is also kept
# under the shape key (one representative a shape, its honours in ``hon``); a miss on
# the exact key reads the representative's bounds so widened. Not under a horizon (the
# static evaluation reads the cards).
cdef uint8_t HON_LESS[256]      # [rep nibble << 4 | cur nibble] of one suit (J C Q K bits):
cdef uint8_t HON_MORE[256]      # the doubled points the current cards are worth less / more


cdef void _init_hon_dist():
    # a suit's live cards from the top: its live honours (K Q C J, doubled points 9 7
    # 5 3) then pips (1 each), matched position by position
    cdef int a, b, k, less, more, pa, pb, ia, ib
    cdef int pts[4]
    pts[0] = 3
    pts[1] = 5
    pts[2] = 7
    pts[3] = 9
    for a in range(16):
        for b in range(16):
            less = 0
            more = 0
            ia = 3
            ib = 3
            for k in range(4):
                while ia >= 0 and not (a >> ia) & 1:
                    ia -= 1
                while ib >= 0 and not (b >> ib) & 1:
                    ib -= 1
                pa = pts[ia] if ia >= 0 else 1
                pb = pts[ib] if ib >= 0 else 1
                if pa > pb:
                    less += pa - pb
                else:
                    more += pb - pa
                ia -= 1
                ib -= 1
            HON_LESS[(a << 4) | b] = less
            HON_MORE[(a << 4) | b] = more


_init_hon_dist()


cdef inline uint16_t honours16(uint64_t l1) noexcept nogil:
    # the live honours of the four suits, a nibble a suit (bit 0 J .. bit 3 K)
    return <uint16_t>(((l1 >> 10) & 0xF) | (((l1 >> 24) & 0xF) << 4)
                      | (((l1 >> 38) & 0xF) << 8) | (((l1 >> 52) & 0xF) << 12))


cdef inline int hon_table(uint8_t* t, uint16_t a, uint16_t b) noexcept nogil:
    # HON_LESS or HON_MORE summed over the four suits (a: the representative's honours)
    return (t[((a & 0xF) << 4) | (b & 0xF)]
            + t[(((a >> 4) & 0xF) << 4) | ((b >> 4) & 0xF)]
            + t[(((a >> 8) & 0xF) << 4) | ((b >> 8) & 0xF)]
            + t[(((a >> 12) & 0xF) << 4) | ((b >> 12) & 0xF)])


cdef inline void mark_low(uint64_t* rel, int c) noexcept nogil:
    # record that the rank of card c decided something (only low cards are tracked:
    # the other cards are always kept in partition entries)
    if c < 22:
        rel[0] |= (<uint64_t>1 << c) & LOW0
    else:
        rel[1] |= (<uint64_t>1 << (c - 22)) & LOW1


cdef inline int is_kept(uint64_t* rel, int c) noexcept nogil:
    """Is card c kept by the marks rel: a point card, or a low card at or above the
    lowest marked low card of its suit?"""
    if c < 22:
        if not ((<uint64_t>1 << c) & LOW0):
            return 1
        return (rel[0] & LOW0 & ((<uint64_t>2 << c) - 1)) != 0
    cdef int b = c - 22
    if not ((<uint64_t>1 << b) & LOW1):
        return 1
    return (rel[1] & (SUIT0 << (14 * SUIT[c])) & ((<uint64_t>2 << b) - 1)) != 0


cdef inline void trick_rel(int* cards, int n, uint64_t* rel) noexcept nogil:
    """Marks of a complete trick: its winner's rank decided the trick if it beat
    another card of its suit (a trump beating a trump, or a suit card beating a card
    of the led suit); a card winning because the others could not follow or trump
    wins by its suit alone (DDS's winning ranks)."""
    cdef int wi = winner_index(cards, n), i, w, c
    if wi < 0:
        return
    w = cards[wi]
    for i in range(n):
        c = cards[i]
        if i != wi and c != EXCUSE and SUIT[c] == SUIT[w]:
            mark_low(rel, w)
            return


cdef int bounds_rel(Pos* p, int x, int v, uint64_t* rel) noexcept nogil:
    """Marks for a cut by value_bounds (bound v at the window x) at a trick boundary:
    the ranks its sure points read; returns the bound the cut may report for the whole
    class these marks define. The highest live trump (who holds it); and, unless the
    bounds without the sure tricks cut too (then their bound is returned: v itself
    rests on the ranks left unmarked, and a class entry storing it would hold it for
    positions whose sure tricks are fewer), with sure_trumps each side's highest trump
    (master trumps are those above the other side's highest) and with sure_lead, in
    each suit the leader holds, the highest card of the other seats (his run of top
    cards ends there). Everything else value_bounds reads is suits, counts and the
    point cards' owners."""
    cdef uint64_t t = p.live[0] & TRUMPS, sm, others
    cdef int L = p.tally.leader, s, lo, hi, st = p.sure_trumps, sl = p.sure_lead, c, low
    if t:
        mark_low(rel, highest_bit(t))
    if st or sl:
        p.sure_trumps = 0
        p.sure_lead = 0
        value_bounds(p, &lo, &hi)
        p.sure_trumps = st
        p.sure_lead = sl
        if lo >= x:
            return lo
        if hi < x:
            return hi
    if p.sure_trumps and p.sure_match:
        # each seat's count of sure trump tricks reads the order of the live trumps
        # down to its lowest sure one (seat_sure_trumps_at): the lowest of these over
        # the seats is kept (a class keeps the order above it, so its counts are at
        # least these; T1, by identity in the key, needs the whole order)
        low = 99
        for s in range(p.n):
            seat_sure_trumps_at(p, s, p.side_live[1 - p.side[s]][0] & TRUMPS, &c)
            if 0 <= c < low:
                low = c
        t = p.live[0] & LOW0
        if low == PETIT and t:
            mark_low(rel, lowest_bit(t))
        elif low < 99 and ((LOW0 >> low) & 1):
            mark_low(rel, low)
    elif p.sure_trumps:
        t = p.side_live[1][0] & TRUMPS
        if t:
            mark_low(rel, highest_bit(t))
        t = p.side_live[0][0] & TRUMPS
        if t:
            mark_low(rel, highest_bit(t))
    if p.sure_lead:
        for s in range(4):
            sm = SUIT0 << (14 * s)
            if p.hand[L][1] & sm:
                others = p.live[1] & sm & ~p.hand[L][1]
                if others:
                    mark_low(rel, 22 + highest_bit(others))
    return v


cdef inline void add_bound(int x, int v, int p0, int* lb, int* lb_p, int* ub,
                           int* ub_p) noexcept nogil:
    """A search result v at the window x, proven at the points p0 (store_offsets),
    into an entry's lower or upper bound: the old bound is kept only if it dominates
    (a lower bound higher at fewer points, an upper bound lower at more)."""
    if v >= x:
        if not (lb[0] >= v and lb_p[0] <= p0):
            lb[0] = v
            lb_p[0] = p0
    elif not (ub[0] <= v and ub_p[0] >= p0):
        ub[0] = v
        ub_p[0] = p0


cdef inline void store_offsets(Pos* p, int* p0, int* off) noexcept nogil:
    """How table bounds relate to the points the attack already took: under T
    (nonlinear in them) a bound is stored with the points it was proven at (p0) and
    applies on the side where T is monotone; under the margin it is stored minus them
    (off) and applies at any points (p0 = 0)."""
    if p.objective == OBJ_MARGIN:
        p0[0] = 0
        off[0] = p.tally.att_pts
    else:
        p0[0] = p.tally.att_pts
        off[0] = 0


cdef inline void kept_low(uint64_t* rel, uint64_t L0, uint64_t L1, uint64_t* kept) noexcept nogil:
    """The live low cards (L0, L1) kept by the marks rel: per suit, those at or above
    the lowest marked one."""
    cdef uint64_t r, blk
    cdef int s
    r = rel[0] & L0
    kept[0] = (L0 & ~((<uint64_t>1 << lowest_bit(r)) - 1)) if r else 0
    kept[1] = 0
    for s in range(4):
        blk = L1 & (SUIT0 << (14 * s))
        r = rel[1] & blk
        if r:
            kept[1] |= blk & ~((<uint64_t>1 << lowest_bit(r)) - 1)


# Tables of freed cores, kept for the next cores of the same size: PIMC builds one core
# per world, and a fresh table costs its pages' first touch (a malloc and a memset of
# megabytes were about a tenth of a Tarot 3p decision). A table travels with its
# generation counter, so entries of the previous owner are dead once the new owner
# bumps it; only a wrap of the 32-bit counter needs a real memset. Touched only with
# the GIL held (__init__/__dealloc__).
cdef enum:
    TT_POOL = 4                         # tables kept for reuse
cdef int TT_POOL_MAX_BITS = 20          # larger tables are freed (at most 4 x 36 MB kept)
cdef TTEntry* pool_tables[TT_POOL]
cdef uint32_t pool_gens[TT_POOL]
cdef int pool_bits[TT_POOL]
cdef int pool_count = 0


cdef int trump_ties(Pos* p, int* cards, int k) noexcept nogil:
    """R_DT: the trick indexes that may win a complete trick with trumps in it (a
    mask, 0 when its winner is the usual one): when its highest trump is a defence
    trump of a class (no bound at it, trump_class_bounds), every defence trump of that
    class in the trick. They are all the defence's: only the next leader depends on
    the choice."""
    cdef int i, wt = -1, mask = 0
    cdef uint64_t b = trump_class_bounds(p), below
    for i in range(k):
        if cards[i] < 21 and cards[i] > wt:
            wt = cards[i]
    if (b >> wt) & 1:
        return 0
    below = b & ((<uint64_t>1 << wt) - 1)     # T1 is a bound: never empty
    for i in range(k):
        if cards[i] < 21 and not (b >> cards[i]) & 1 \
                and cards[i] > highest_bit(below):
            mask |= 1 << i
    return mask if (mask & (mask - 1)) else 0


cdef int void_ties(Pos* p, int* cards, int k, int led) noexcept nogil:
    """R_DV: the trick indexes that may win a trick of k cards without trumps, led
    suit ``led``, when no attack seat played a card of it: every defender that
    followed it (0: only one did); -1 when an attack seat followed (R_D's rule)."""
    cdef int i, c, mask = 0
    for i in range(k):
        c = cards[i]
        if c < 22 or SUIT[c] != led:
            continue
        if p.side[(p.tally.leader + i) % p.n]:
            return -1
        mask |= 1 << i
    return mask if (mask & (mask - 1)) else 0


cdef int pip_ties(Pos* p, int c) noexcept nogil:
    """Relaxed games: the trick indexes that may win the trick c completes (a mask,
    0 when its winner is the usual one): when no trump is in it and the best card of
    the led suit is a pip, every pip of the led suit; in R_DT, with trumps in it,
    trump_ties."""
    cdef int base = p.ply - p.ntrick, i, k, led = -1, best = -1
    cdef int cards[MAXP]
    cdef int mask = 0
    for i in range(p.ntrick):
        cards[i] = p.played[base + i]
    cards[p.ntrick] = c
    k = p.ntrick + 1
    for i in range(k):
        if cards[i] == EXCUSE:
            continue
        if cards[i] < 21:
            return trump_ties(p, cards, k) if p.relax_trumps else 0
        if led < 0:
            led = SUIT[cards[i]]
        if SUIT[cards[i]] == led and cards[i] > best:
            best = cards[i]
    if p.relax_void:
        mask = void_ties(p, cards, k, led)
        if mask >= 0:
            return mask
    if not is_pip(best):
        return 0
    for i in range(k):
        if cards[i] >= 22 and SUIT[cards[i]] == led:
            mask |= 1 << i
    return mask if (mask & (mask - 1)) else 0


cdef void canonical_trumps(Pos* p, uint64_t* w0) noexcept nogil:
    """R_DT, at a trick boundary: each seat's word 0 with the defence's trumps of
    each class (trump_class_bounds) given out again in a fixed way -- the lowest of the
    class to the first defender in seat order as many as it holds, and so on -- so that
    positions differing only in which of a class's trumps each defender holds (the same
    numbers) have the same words, and the same table key."""
    cdef uint64_t b = trump_class_bounds(p)
    cdef uint64_t free = p.live[0] & TRUMPS & ~b, cls, whole
    cdef int s, k
    for s in range(p.n):
        w0[s] = p.hand[s][0] & ~free
    while free:
        whole = lowest_trump_class(free, b)
        free &= ~whole
        cls = whole
        for s in range(p.n):
            k = popcount64(p.hand[s][0] & whole)
            while k > 0:
                w0[s] |= cls & (~cls + 1)
                cls &= cls - 1
                k -= 1


cdef int LOG4[32]             # round(4 log2 k): move ordering's branching measure
for _i in range(1, 32):
    LOG4[_i] = <int>(4.0 * log2(_i) + 0.5)
LOG4[0] = 0


cdef int reply_choices(Pos* p, int s, int led, int wt, uint64_t bnd) noexcept nogil:
    """Move ordering (``mobility``): how many different cards seat s could play to a
    trick of led suit ``led`` (0..3, 4 = trumps, -1: not known yet) whose highest
    trump is ``wt`` (-1: none), counted as the search branches on them (relaxed: a
    suit's pips one card; R_DT: a defender's trumps of a class one card, ``bnd`` the
    trump_class_bounds), by TAROT-PLAY-3..5."""
    cdef uint64_t h0 = p.hand[s][0], h1 = p.hand[s][1]
    cdef uint64_t t = h0 & TRUMPS, c0 = 0, c1 = 0, over, pips
    cdef int n = 0, i
    if led < 0:
        c0 = t
        c1 = h1
    elif led < 4 and (h1 & (SUIT0 << (14 * led))):
        c1 = h1 & (SUIT0 << (14 * led))
    elif t:
        over = t & ~((<uint64_t>2 << wt) - 1) if wt >= 0 else t
        c0 = over if over else t
    else:
        c1 = h1
    if p.relax:
        for i in range(4):
            pips = c1 & LOW1 & (SUIT0 << (14 * i))
            if pips:
                n += 1
                c1 &= ~pips
    if p.relax_trumps and not p.side[s]:
        c0 = (c0 & bnd) | class_lowest(c0 & ~bnd, bnd)
    return n + popcount64(c0) + popcount64(c1) + ((h0 & EXBIT) != 0)


cdef inline int seat_can_beat(uint64_t h0, uint64_t h1, int w, int ledsuit) noexcept nogil:
    """Can a seat holding (h0, h1) play a card above the trick's winning card w, with
    ledsuit led (TAROT-PLAY-3..6: follow, else trump)? For move ordering only."""
    cdef uint64_t follow
    if ledsuit != 4:
        follow = h1 & (SUIT0 << (14 * ledsuit))
        if follow:
            return w >= 22 and (follow & ~((<uint64_t>2 << (w - 22)) - 1)) != 0
    # trumps led, or void in the led suit: a trump above w (any trump above a suit card)
    if w >= 21:
        return (h0 & TRUMPS) != 0
    return (h0 & TRUMPS & ~((<uint64_t>2 << w) - 1)) != 0


cdef inline double now_s() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef int LO_INF = -30000
cdef int NO_HORIZON = 1 << 20
cdef int HI_INF = 30000


cdef class TarotCore:
    """A Tarot play-phase position with O(1) play/undo, random playouts and the exact
    double-dummy search. Built from plain integers by ``solver.core.tarot``."""

    cdef Pos p
    cdef TTEntry* tt
    cdef uint32_t* pmeta    # partition entries' meta words, one per entry (part_meta)
    cdef uint32_t tt_gen
    cdef uint64_t tt_mask
    cdef int tt_bits
    cdef int64_t nodes
    cdef int64_t node_budget
    cdef double deadline
    cdef int aborted
    cdef int64_t tt_probes
    cdef int64_t tt_hits
    cdef int64_t cut_first
    cdef int64_t cut_later
    cdef int64_t no_cut
    cdef int use_tt
    cdef int use_merge
    cdef int use_bounds
    cdef int use_order
    cdef int use_mobility   # the attack's leads ordered by the opponents' answers
    cdef int use_merge2     # points-aware merging of runs (order_moves)
    cdef int use_m2rx       # merge2 in the relaxed games too (runs stop at the pips)
    cdef int use_void       # R_DV: a defender's poorest card of a suit the attack is void in
    cdef int use_lowest     # relaxed games: the weakened side's lowest card into a lost trick
    cdef int trumps_last    # fail proofs: the defence's trump leads after its plain leads
    cdef int excuse_last    # ... and its Excuse lead after all of them
    cdef int att_trumps_last  # made proofs: the attack's trump leads that may lose, last
    cdef int use_part       # partition search: table entries for classes (PEntry)
    cdef int use_quasi      # quasi-symmetry: shape entries in the plain table
    cdef int use_effort     # table replacement by the nodes an entry cost (tt_effort)
    cdef int tt_ways        # entries per plain-table bucket (4; 2 without tt_effort)
    cdef int use_sweep_low  # sweep probes: the refuting side's lowest plain card (sweep_lowest)
    cdef int sweep_one_seat # the side a sweep probe proves for has one seat
    cdef int saved_part     # set_relax: merge2 is off while relaxed (it reads the pips'
    cdef int saved_merge2   # ranks), partition search frees every pip; restored after
    cdef int use_relax_part # partition search inside the relaxed games (set_features)
    cdef int last_lo        # the interval the last value() call proved
    cdef int last_hi
    # horizon search: trick boundaries with trick_no >= hz_trick are scored by
    # static_eval instead of searched (NO_HORIZON: exact search to the end)
    cdef int hz_trick
    cdef int64_t hz_leaves
    cdef int verify_left
    cdef int64_t verify_bad
    cdef int64_t verify_n
    cdef int64_t part_hits        # cuts by class entries (not the exact position's)
    cdef int64_t quasi_found      # shape entries met after an exact-key miss
    cdef int64_t quasi_cuts       # ... whose widened bounds cut
    cdef int64_t part_stores      # partition entries stored
    cdef int64_t part_free        # ... and the low cards they left free, summed
    # per trick number (diagnostics, ``stats()['by_trick']``): nodes, ends of the deal
    # (all counted at the last row), cuts by the bounds, cuts by the table
    cdef int64_t tstat[MAXTRICKS][4]

    def __cinit__(self):
        self.tt = NULL

    def __dealloc__(self):
        self.release_tt()

    cdef void release_tt(self):
        """Give the table back to the pool (or free it)."""
        global pool_count
        if self.tt == NULL:
            return
        if pool_count < TT_POOL and self.tt_bits <= TT_POOL_MAX_BITS:
            pool_tables[pool_count] = self.tt
            pool_gens[pool_count] = self.tt_gen
            pool_bits[pool_count] = self.tt_bits
            pool_count += 1
        else:
            atout_table_free(self.tt, table_bytes(self.tt_bits))
        self.tt = NULL

    cdef int acquire_tt(self, int bits) except -1:
        """Take a table of 2**bits entries from the pool, or allocate one; empty."""
        global pool_count
        cdef int i
        self.release_tt()
        self.tt_bits = bits
        self.tt_mask = (<uint64_t>1 << bits) - 1
        for i in range(pool_count - 1, -1, -1):
            if pool_bits[i] == bits:
                self.tt = pool_tables[i]
                self.pmeta = <uint32_t*>(self.tt + ((<size_t>1) << bits))
                self.tt_gen = pool_gens[i]
                pool_count -= 1
                pool_tables[i] = pool_tables[pool_count]
                pool_gens[i] = pool_gens[pool_count]
                pool_bits[i] = pool_bits[pool_count]
                self.clear_tt()
                return 0
        self.tt = <TTEntry*>atout_table_alloc(table_bytes(bits))
        if self.tt == NULL:
            raise MemoryError("transposition table")
        self.pmeta = <uint32_t*>(self.tt + ((<size_t>1) << bits))
        self.tt_gen = 1
        return 0

    def __init__(self, int n, hands, int leader, trick=(), int trick_no=0,
                 int total_tricks=0, sides=(), int att_pts=0, int att_bouts=0,
                 int att_tricks=0, int def_tricks=0, int petit_trick=-1,
                 int excuse_rule=0, forbid=0, int base=25, int mult=1, int pb_mult=1,
                 int poignee=0, bint chelem_announced=False, int tt_bits=20):
        """Set up a position. ``hands``: 78-bit deck masks per seat; ``trick``: cards
        already in the current trick, in play order from ``leader``; ``sides``: 1 for
        attack seats; ``att_pts``: doubled points already in the attack's pile."""
        cdef int i, c
        if n < 3 or n > 5:
            raise ValueError("players must be 3, 4 or 5")
        if len(hands) != n or len(sides) != n:
            raise ValueError("one hand and one side per seat")
        if len(trick) >= n:
            raise ValueError("the current trick must be incomplete")
        if not (0 <= leader < n) or not (0 < total_tricks <= 24):
            raise ValueError("bad leader or trick count")
        if not (0 <= trick_no < total_tricks) or not (0 <= att_bouts <= 3):
            raise ValueError("bad trick number or bouts")
        if tt_bits < 4 or tt_bits > 28:
            raise ValueError("tt_bits must be in 4..28")
        memset(&self.p, 0, sizeof(Pos))
        self.p.n = n
        self.p.total_tricks = total_tricks
        self.p.tally.leader = leader
        self.p.trick_no = trick_no
        self.p.tally.att_pts = att_pts
        self.p.tally.att_bouts = att_bouts
        self.p.tally.att_tricks = att_tricks
        self.p.tally.def_tricks = def_tricks
        self.p.tally.petit_trick = petit_trick
        self.p.excuse_rule = excuse_rule
        self.p.base = base
        self.p.mult = mult
        self.p.pb_mult = pb_mult
        self.p.poignee = poignee
        self.p.chelem_announced = chelem_announced
        self.p.forbid[0] = <uint64_t>(forbid & 0x3FFFFF)
        self.p.forbid[1] = <uint64_t>(forbid >> 22)
        self.p.restrict_first = 1 if forbid else 0
        for i in range(n):
            h = int(hands[i])
            if h < 0 or h >> 78:
                raise ValueError("hand mask out of range")
            self.p.hand[i][0] = <uint64_t>(h & 0x3FFFFF)
            self.p.hand[i][1] = <uint64_t>(h >> 22)
            self.p.live[0] |= self.p.hand[i][0]
            self.p.live[1] |= self.p.hand[i][1]
            self.p.side[i] = 1 if sides[i] else 0
            self.p.side_live[self.p.side[i]][0] |= self.p.hand[i][0]
            self.p.side_live[self.p.side[i]][1] |= self.p.hand[i][1]
        self.p.live_pts = mask_points(self.p.live[0], self.p.live[1])
        for i, c in enumerate(trick):
            if not 0 <= c < NCARDS:
                raise ValueError("card out of range")
            self.p.played[i] = c
        self.p.ply = len(trick)
        self.p.start_ply = self.p.ply
        self.p.ntrick = len(trick)
        self.p.cur = (leader + len(trick)) % n
        self.p.led = -1
        self.p.wt = -1
        for c in trick:
            if c != EXCUSE:
                if self.p.led < 0:
                    self.p.led = c
                if c < 21 and c > self.p.wt:
                    self.p.wt = c
        self.p.wi = winner_index(self.p.played, self.p.ntrick) if trick else -1
        self.p.wc = self.p.played[self.p.wi] if self.p.wi >= 0 else -1
        # consistency, so that nothing below can index out of range or run dry
        seen = 0
        for h in list(hands) + [(<object>1) << int(tc) for tc in trick]:
            if int(h) & seen:
                raise ValueError("a card is in two places")
            seen |= int(h)
        left = total_tricks - trick_no
        for i in range(n):
            played = 1 if (i - leader + n) % n < len(trick) else 0
            if _popcount(int(hands[i])) + played != left:
                raise ValueError("hand sizes do not match the tricks left")
        if not (0 <= att_pts <= 182 and 0 <= poignee <= 1000 and 0 <= base <= 200
                and 1 <= mult <= 10 and 0 <= pb_mult <= 10 and excuse_rule in (0, 1)):
            raise ValueError("counts or scoring parameters out of range")
        if att_tricks < 0 or def_tricks < 0 or att_tricks + def_tricks != trick_no:
            raise ValueError("trick counts do not match the trick number")
        self.use_tt = 1
        self.use_merge = 1
        self.use_bounds = 1
        self.use_order = 1
        self.use_mobility = 1
        self.use_merge2 = 1
        self.use_m2rx = 1
        self.use_void = 1
        self.use_lowest = 1
        self.use_part = 1
        self.use_quasi = 1
        self.use_sweep_low = 1
        self.use_effort = 1
        self.tt_ways = 4
        self.p.sure_ex = 1
        self.p.sure_trumps = 1
        self.p.sure_lead = 1
        self.p.sure_match = 1
        self.p.sure_won = 1
        self.p.sure_petit = 1
        self.p.sure_owed = 1
        self.p.sure_owed_tricks = 1
        self.p.eval_fit = 0
        self.p.eval_sd = 0.0
        self.p.relax = RELAX_NONE
        self.p.relax_trumps = 0
        self.p.relax_void = 0
        self.p.force_wi = -1
        self.p.objective = OBJ_T
        self.hz_trick = NO_HORIZON
        self.use_relax_part = 0
        self.acquire_tt(tt_bits)

    def clear_tt(self):
        """Empty the transposition table: a new generation (O(1)); the memset happens
        only when the counter wraps."""
        self.tt_gen += 1
        if self.tt_gen == 0:
            memset(self.tt, 0, table_bytes(self.tt_bits))
            self.tt_gen = 1

    def set_features(self, bint tt=True, bint merge=True, bint bounds=True, bint order=True,
                     bint merge2=True, bint sure_ex=True, bint sure_trumps=True,
                     bint sure_lead=True, bint partition=True, bint sure_match=True,
                     bint sure_won=True, bint sure_petit=True, bint relax_part=False,
                     bint mobility=True, bint merge2_relaxed=True, bint void=True,
                     bint lowest=True, bint sure_owed=True, bint sure_owed_tricks=True,
                     bint quasi=True, bint sweep_low=True, bint tt_effort=True):
        """Switch search techniques on/off (for measurements and cross-checks);
        ``merge2=False, sure_ex=False, sure_trumps=False, sure_lead=False,
        partition=False, sure_match=False, sure_won=False, sure_petit=False`` is the
        search as it was before issue 23's techniques (the benchmark's baseline);
        ``partition=False`` alone is the exact-key table. The sure facts of
        value_bounds: ``sure_match`` counts the trumps no opposing trump can beat as
        sure tricks (not only the masters), ``sure_won`` drops the Excuse condition
        (TAROT-EXC-6) for a side that has won a trick, ``sure_petit`` credits the Petit
        to its side when the other side holds no trump. The table is emptied: its bounds
        were proven by the previous search, which is fine, but a clean table keeps the
        measurements apart. ``relax_part`` (off: measured x1.01-1.07 fewer nodes, more
        time): partition search also in the relaxed games (``set_relax``), where it
        frees every pip. ``merge2_relaxed``: merge2 also in the relaxed games (with
        merge2 on), where a run stops at the pips and no trick a pip is winning counts
        as sure (they have no rank there). ``mobility``: the attack's leads ordered by
        how many ways the opponents can answer them (fewest first,
        ``lead_branching``). ``lowest``: part of the relaxed games' rules (so the
        plain minimax of a relaxed game has it too): the side a relaxed game's proofs
        run against (the attack below the real game, the defence in R_A) plays only its
        lowest card of a plain suit into a trick it surely loses (order_moves).
        ``quasi``: quasi-symmetry shape entries in the plain table (see HON_LESS).
        ``sweep_low``: sweep probes search only the refuting side's lowest card of a
        plain suit the trick's winner already beats (sweep_lowest). ``tt_effort``: the
        tables' replacement ranks entries by the nodes their bounds cost, in plain-table
        buckets of four (off: two, the deeper entry kept; both tables by cards left)."""
        self.use_tt = tt
        self.use_merge = merge
        self.use_bounds = bounds
        self.use_order = order
        self.use_relax_part = relax_part
        self.use_mobility = mobility
        self.use_m2rx = merge2_relaxed
        self.use_void = void
        self.use_lowest = lowest
        self.use_quasi = quasi
        self.use_sweep_low = sweep_low
        self.use_effort = tt_effort
        self.tt_ways = 4 if tt_effort else 2
        if self.p.relax == RELAX_NONE:
            self.use_merge2 = merge2
            self.use_part = partition
        else:
            self.saved_merge2 = merge2
            self.saved_part = partition
            self.use_part = partition and relax_part and not self.p.relax_trumps
        self.p.sure_ex = sure_ex
        self.p.sure_trumps = sure_trumps
        self.p.sure_lead = sure_lead
        self.p.sure_match = sure_match
        self.p.sure_won = sure_won
        self.p.sure_petit = sure_petit
        self.p.sure_owed = sure_owed
        self.p.sure_owed_tricks = sure_owed_tricks
        self.clear_tt()

    def set_trump_leads_last(self, bint last, bint excuse_last=True):
        """Move ordering for fail proofs (the real game and R_A): the defence's trump
        leads searched after its plain-suit leads (the bouts first among them), where
        the heuristic puts a sure-winning trump lead first, and with ``excuse_last``
        its Excuse lead after all of them, where the heuristic puts it before every
        lead that is not a sure winner. In a fail proof every defence node must find a
        card that refutes, and a card that does not costs a made proof of its
        subtree: at the 4p first lead 65-99 % of a fail proof's nodes went to such
        cards, most under trump leads where a plain lead refuted (nineteenth session);
        after that change the largest single miss was an Excuse lead (twentieth
        session: R_A's fail proofs x1.50 geometric mean over 11 4p first leads, none
        dearer). Values never change; the table is kept."""
        self.trumps_last = last
        self.excuse_last = last and excuse_last

    def set_attack_trump_leads_last(self, bint last):
        """Move ordering for made proofs (in the relaxed games below the real one,
        where (a) proves made): the attack's trump leads that are not sure winners
        searched after its plain leads, where the lead's mobility (few answers for the
        opponents: a trump lead forces trumps) would put them first. A made proof needs
        one attack card that succeeds at each attack node; a trump lead that does not
        costs a fail proof of its subtree. Measured (twentieth session): R_DD's made
        proofs at the 4p first lead x1.12 geometric mean over 13 deals (x0.5-2.6 per
        deal), 5p x1.12; every attack trump lead last instead x0.69. Values never
        change; the table is kept."""
        self.att_trumps_last = last

    def set_eval(self, weights=None, double spread=0.0):
        """The point split of the static evaluation (the horizon search's leaf):
        ``None`` = by trick-taking power (as built); else the EVAL_TERMS weights of the
        linear form that replaces it (``fitted_split``; doubled points per unit:
        intercept, power split, live non-bout points, their difference attack - defence,
        trumps without the Petit A - D, trumps above all of the other side's A - D,
        plain-suit masters A - D, cuts A - D, the attack leads, kings A - D, the attack
        holds the Petit, the defence does, the attack's Petit is hunted). ``spread`` >
        0 (objective T): the leaf is T's expectation over a final pile normally spread
        by that many doubled points around the estimate (``soft_points``). Exact
        searches never read either. The table is emptied (its horizon values came from
        the other evaluation)."""
        cdef int i
        if not 0.0 <= spread <= 100.0:
            raise ValueError(f"set_eval's spread is in doubled points, 0 to 100, got {spread}")
        self.p.eval_sd = spread
        for i in range(2 * SOFT_HALF):      # margin e = i - SOFT_HALF, at R(3 bouts)
            self.p.soft_tab[i] = soft_points_sum(&self.p, i - SOFT_HALF + R2[3], 3)
        if weights is None:
            self.p.eval_fit = 0
        else:
            ws = [float(x) for x in weights]
            if len(ws) != EVAL_TERMS:
                raise ValueError(f"set_eval wants {EVAL_TERMS} weights, got {len(ws)}")
            for i in range(EVAL_TERMS):
                self.p.eval_w[i] = ws[i]
            self.p.eval_fit = 1
        self.clear_tt()

    def set_relax(self, str mode):
        """Search a relaxed game: ``"defence"`` (R_D) or ``"attack"`` (R_A), or
        ``"none"`` (the real game, the default). In R_D the plain-suit pips (1..10) have
        no rank: a trick whose best card of the led suit is a pip (no trump in it) goes
        to whichever seat that played a pip of the led suit the defence chooses
        (TAROT-PLAY-6 otherwise). The real outcome is one of its choices, so R_D's value
        is at most the real one (the defence has more options, the attack none more):
        made in R_D is made. R_A, the attack choosing, bounds it from above. Pips of
        a suit in one hand are then one card (one is searched), and the table key
        holds only their counts. Points-aware merging stops its runs at the pips
        (``merge2_relaxed``), and partition search is off unless ``relax_part`` is set
        (``set_features``; it then frees every pip). The table is emptied.

        ``"defence-trumps"`` (R_DT) is R_D where, besides, the defence's low trumps have
        no rank among themselves between two trumps of the attack (T1 and T21 keep
        theirs): in a trick whose highest trump is such a defence trump the defence
        picks the winner among its trumps of that class, and a defender who must
        overtrump it may play any trump of the class or above (any trump if it holds
        none above the class). The defence again only gains options, so R_DT <= R_D:
        made in R_DT is made. A defender's trumps of one class are one card, and the
        table key holds how many of each class each defender holds. Partition search
        is off in it.

        ``"defence-void"`` (R_DV) is R_DT where, besides, a trick without trumps in
        which no attack seat played a card of the led suit goes to the defender the
        defence picks among those that followed it (the points go to the defence
        either way; only its next leader is chosen). R_DV <= R_DT: made in R_DV is
        made. In a suit the attack holds no card of, the defence's cards then have no
        rank for the rest of the deal, so to a trick the attack surely takes a
        defender gives only its poorest card of such a suit, and to one the defence
        surely takes only its richest (``set_features(void=)``, void_one_card).

        ``"defence-discard"`` (R_DD) is R_DV where, besides, a defender holding no
        trump nor the Excuse that cannot follow the led suit defers its discard: it
        plays no card now (the trick gets a half point, what any discard is worth at
        least) and keeps its hand, owing a card to the side that takes the trick. It
        pays later: before it plays to a trick of a suit it holds no more cards of than
        it owes, it may give up all of them (then it cannot follow and defers again),
        and at the end of the deal what it still holds is what it owes; the defence
        chooses which of the paid cards count for the tricks it took (the richest). A
        real discard is the deferred one paid at once, so the defence only gains
        choices: R_DD <= R_DV, made in R_DD is made. A defender's discards are then one
        move instead of one per card: the made proofs that ran out of nodes at the
        first lead are the defence's discards (``rdd_moves``). The table key adds what
        each defender owes to the defence's tricks."""
        cdef int mode_id, trumps = 0, void = 0, discard = 0
        if mode == "none":
            mode_id = RELAX_NONE
        elif mode == "defence":
            mode_id = RELAX_DEFENCE
        elif mode == "defence-trumps":
            mode_id = RELAX_DEFENCE
            trumps = 1
        elif mode == "defence-void":
            mode_id = RELAX_DEFENCE
            trumps = 1
            void = 1
        elif mode == "defence-discard":
            mode_id = RELAX_DEFENCE
            trumps = 1
            void = 1
            discard = 1
        elif mode == "attack":
            mode_id = RELAX_ATTACK
        else:
            raise ValueError("relax must be 'none', 'defence', 'defence-trumps', "
                             f"'defence-void', 'defence-discard' or 'attack', got {mode!r}")
        if mode_id != RELAX_NONE and self.p.relax == RELAX_NONE:
            self.saved_part = self.use_part
            self.saved_merge2 = self.use_merge2
            self.use_part = self.use_part and self.use_relax_part
            self.use_merge2 = 0
        elif mode_id == RELAX_NONE and self.p.relax != RELAX_NONE:
            self.use_part = self.saved_part
            self.use_merge2 = self.saved_merge2
        self.p.relax = mode_id
        self.p.relax_trumps = trumps
        self.p.relax_void = void
        self.p.relax_discard = discard
        if trumps:
            self.use_part = 0      # its classes read the low trumps' ranks
        elif mode_id != RELAX_NONE:
            self.use_part = self.saved_part and self.use_relax_part
        self.clear_tt()

    @property
    def relax(self):
        if self.p.relax_discard:
            return "defence-discard"
        if self.p.relax_void:
            return "defence-void"
        if self.p.relax_trumps:
            return "defence-trumps"
        return ("none", "defence", "attack")[self.p.relax]

    def set_objective(self, str objective):
        """What the searches compute: ``"T"`` (TAROT-SCORE-1, the default) or
        ``"margin"``: E = P - R(B) of TAROT-COUNT-4 in doubled points, so that
        ``probe(0)`` answers whether the contract is made. The table keeps the entries of
        both objectives (the objective is part of every key), so switching back and
        forth loses nothing."""
        cdef int obj
        if objective == "T":
            obj = OBJ_T
        elif objective == "margin":
            obj = OBJ_MARGIN
        else:
            raise ValueError(f"objective must be 'T' or 'margin', got {objective!r}")
        self.p.objective = obj

    @property
    def objective(self):
        return "margin" if self.p.objective == OBJ_MARGIN else "T"

    # ---------------------------------------------------------- position API
    @property
    def to_act(self):
        return None if is_over(&self.p) else to_act(&self.p)

    @property
    def n(self):
        return self.p.n

    @property
    def trick_no(self):
        return self.p.trick_no

    @property
    def leader(self):
        return self.p.tally.leader

    @property
    def trick(self):
        return [self.p.played[self.p.ply - self.p.ntrick + i] for i in range(self.p.ntrick)]

    def is_over(self):
        return bool(is_over(&self.p))

    def side_of_to_act(self):
        """1 if the seat to act is in the attack, 0 for the defence."""
        return self.p.side[to_act(&self.p)]

    def hand(self, int seat):
        """78-bit deck mask of a seat's remaining cards."""
        if not 0 <= seat < self.p.n:
            raise ValueError("no such seat")
        return int(self.p.hand[seat][0]) | (int(self.p.hand[seat][1]) << 22)

    def legal_mask(self):
        """78-bit deck mask of the legal cards of the seat to act (0 if over)."""
        cdef uint64_t m[2]
        if is_over(&self.p):
            return 0
        legal_mask(&self.p, m)
        return int(m[0]) | (int(m[1]) << 22)

    def play(self, int card):
        """Play a legal card (ValueError otherwise)."""
        cdef uint64_t m[2]
        if is_over(&self.p):
            raise ValueError("the deal is over")
        if not 0 <= card < NCARDS:
            raise ValueError("card out of range")
        legal_mask(&self.p, m)
        if not (m[card_word(card)] & card_bit(card)):
            raise ValueError("illegal card")
        play_card(&self.p, card)

    def undo(self):
        """Take back the last card played in the core."""
        if self.p.ply <= self.p.start_ply:
            raise ValueError("nothing to undo")
        undo_card(&self.p)

    def counts(self):
        """Captured-history summary: doubled attack points, attack bouts, tricks won
        by each side, petit-au-bout term, EXC-6 flag."""
        cdef Tally* t = &self.p.tally
        return dict(att_pts=t.att_pts, att_bouts=t.att_bouts, att_tricks=t.att_tricks,
                    def_tricks=t.def_tricks, pb=t.pb, exc6=t.exc6, petit_trick=t.petit_trick)

    def last_trick_winner(self):
        """Seat that won the last completed trick (the current leader)."""
        return self.p.tally.leader

    def final_value(self):
        """Per-defender amount T (TAROT-SCORE-1) of a finished deal."""
        if not is_over(&self.p):
            raise ValueError("the deal is not over")
        return final_value(&self.p)

    def bounds(self):
        """(low, high) bounds of the final T from this trick boundary."""
        cdef int lo, hi
        value_bounds(&self.p, &lo, &hi)
        return lo, hi

    def playout(self, uint64_t seed):
        """Play the deal out at random from here (seeded) and return the final T;
        the position is restored afterwards."""
        cdef uint64_t rng = seed * <uint64_t>0x9E3779B97F4A7C15 + 1
        cdef int start = self.p.ply, v
        with nogil:
            v = playout(&self.p, &rng)
            while self.p.ply > start:
                undo_card(&self.p)
        return v

    def playouts(self, long count, uint64_t seed):
        """`count` seeded random playouts from here; returns the sum of final T."""
        cdef uint64_t rng = seed * <uint64_t>0x9E3779B97F4A7C15 + 1
        cdef int start = self.p.ply
        cdef long i
        cdef int64_t total = 0
        if rng == 0:
            rng = 1
        with nogil:
            for i in range(count):
                total += playout(&self.p, &rng)
                while self.p.ply > start:
                    undo_card(&self.p)
        return total

    def legal_generations(self, long count, uint64_t seed):
        """Benchmark helper: `count` legal-move generations along random playouts;
        returns a checksum of the masks."""
        cdef uint64_t rng = seed * <uint64_t>0x9E3779B97F4A7C15 + 1
        cdef int start = self.p.ply
        cdef long i
        cdef uint64_t m[2]
        cdef uint64_t acc = 0
        with nogil:
            for i in range(count):
                if is_over(&self.p):
                    while self.p.ply > start:
                        undo_card(&self.p)
                legal_mask(&self.p, m)
                acc += m[0] ^ m[1]
                play_card(&self.p, pick_random(m, &rng))
            while self.p.ply > start:
                undo_card(&self.p)
        return int(acc)

    def legal_generations_repeat(self, long count, int per_position, uint64_t seed):
        """Benchmark helper: `count` legal-move generations, `per_position` at each
        position of seeded random playouts (generation cost only); returns a checksum."""
        cdef uint64_t rng = seed * <uint64_t>0x9E3779B97F4A7C15 + 1
        cdef int start = self.p.ply
        cdef long i = 0
        cdef int j
        cdef uint64_t m[2]
        cdef uint64_t acc = 0
        if per_position < 1:
            raise ValueError("per_position must be >= 1")
        with nogil:
            while i < count:
                if is_over(&self.p):
                    while self.p.ply > start:
                        undo_card(&self.p)
                for j in range(per_position):
                    legal_mask(&self.p, m)
                    acc += (m[0] ^ m[1]) + <uint64_t>j
                i += per_position
                play_card(&self.p, pick_random(m, &rng))
            while self.p.ply > start:
                undo_card(&self.p)
        return int(acc)

    # ------------------------------------------------------------- search
    def stats(self):
        """Counters since the core was made: nodes, table probes and hits, cut
        statistics, partition-search counts, and ``by_trick``: per trick number, the
        nodes searched, the ends of the deal reached (all in the last row), the cuts by
        the value bounds and by the table at trick boundaries."""
        return dict(nodes=self.nodes, tt_probes=self.tt_probes, tt_hits=self.tt_hits,
                    aborted=bool(self.aborted), cut_first=self.cut_first,
                    cut_later=self.cut_later, no_cut=self.no_cut,
                    horizon_leaves=self.hz_leaves, part_stores=self.part_stores,
                    by_trick=[[self.tstat[t][c] for c in range(4)]
                              for t in range(MAXTRICKS)],
                    part_hits=self.part_hits, quasi_found=self.quasi_found,
                    quasi_cuts=self.quasi_cuts,
                    part_free=self.part_free)

    def verify_class_hits(self, int tricks_left):
        """Diagnostics and tests: from now on, every cut by a class entry (partition
        search) or a shape entry (quasi-symmetry: the bound it returned) with at most
        ``tricks_left`` tricks to play is checked by a search of the position itself
        without the table; returns (checked, contradicted) so far."""
        self.verify_left = tricks_left
        return self.verify_n, self.verify_bad

    def set_horizon(self, horizon=None):
        """Depth-limit the searches: the current trick and ``horizon`` complete tricks
        after it are searched exactly, then each trick boundary is scored by the static
        evaluation (``static_eval``). ``None``/0: search to the end (exact).

        The horizon is stored as an absolute trick number (current trick + 1 +
        horizon), fixed when this is called: positions with the same cards left then
        have the same remaining depth, so the transposition key needs no depth. The
        table is emptied when the horizon changes (its bounds belong to one truncated
        game)."""
        cdef int hz = NO_HORIZON
        if horizon is not None and horizon != 0:
            if horizon < 0:
                raise ValueError("horizon must be >= 0")
            hz = self.p.trick_no + 1 + min(int(horizon), 64)
        if hz != self.hz_trick:
            self.hz_trick = hz
            self.clear_tt()

    @property
    def horizon_trick(self):
        """Absolute trick number where the search stops (None: no horizon)."""
        return None if self.hz_trick == NO_HORIZON else self.hz_trick

    def truncated(self):
        """True if searches from here stop at a horizon before the end of the deal."""
        return self.hz_trick < self.p.total_tricks

    def table_key(self):
        """The transposition-table key of this trick-boundary position (diagnostics
        and tests: positions of the same key must be the same game)."""
        if self.p.ntrick != 0:
            raise ValueError("positions are keyed at trick boundaries")
        cdef uint64_t check
        cdef uint64_t key = self.tt_key(&check)
        return int(key), int(check)

    def at_horizon(self):
        """True at a trick boundary the horizon search scores statically."""
        return (not is_over(&self.p) and self.p.ntrick == 0
                and self.p.trick_no >= self.hz_trick)

    def static_eval(self):
        """The static evaluation of this trick boundary (see ``static_eval`` in the
        core): exact on a finished deal; exposed for tests."""
        if self.p.ntrick != 0:
            raise ValueError("the static evaluation is defined at trick boundaries")
        return static_eval(&self.p)

    def probe(self, int x, node_budget=None, deadline=None):
        """Zero-window test: can the attack guarantee a final T >= x?
        Returns True/False, or None if a limit stopped the search."""
        self._arm(node_budget, deadline)
        cdef int r
        cdef uint64_t rel[2]
        with nogil:
            r = self.search(x, rel)
        if self.aborted:
            return None
        return r >= x

    def sweep_probe(self, int side, int x, node_budget=None, deadline=None):
        """Score classes (the chelem and the petit au bout as probes of their own): can
        ``side`` (0 the defence, 1 the attack) force taking every remaining trick with
        a final T <= x (the defence) / >= x (the attack)? True proves T <= x / T >= x
        in the real game; False proves that the other side can prevent it, so T is
        then beyond x or in a deal that ``side`` did not sweep (``sweep_rest_bound``).
        None if a limit stopped it. Exact (no horizon), in the real game (also from
        inside a trick); the plain table only (``set_features(partition=False)``)."""
        if side not in (0, 1):
            raise ValueError(f"side must be 0 (defence) or 1 (attack), got {side}")
        if self.p.relax != RELAX_NONE:
            raise ValueError("sweep probes search the real game: set_relax('none')")
        if self.use_part or not self.use_tt:
            raise ValueError("sweep probes use the plain table: "
                             "set_features(partition=False)")
        if self.p.objective != OBJ_T:
            raise ValueError("sweep probes bound T: set_objective('T')")
        if not -32768 <= x < 32768:
            raise ValueError(f"threshold out of range: {x}")
        self._arm(node_budget, deadline)
        cdef int r, i, seats = 0
        for i in range(self.p.n):
            seats += self.p.side[i] == side
        self.sweep_one_seat = seats == 1
        with nogil:
            r = self.sweep_search(side, x)
        if self.aborted:
            return None
        return r == 1

    cdef void trick_so_far(self, int side, int* pts, int* bouts, int* other_ex,
                           int* petit) noexcept:
        """The current trick's cards (sweeps from inside a trick): their doubled
        points and bouts, whether the Excuse among them is the other side's (it goes
        back to it, TAROT-EXC-3/4), whether the Petit is among them."""
        cdef Pos* p = &self.p
        cdef int i, c, base = p.ply - p.ntrick
        pts[0] = bouts[0] = other_ex[0] = petit[0] = 0
        for i in range(p.ntrick):
            c = p.played[base + i]
            if c >= NCARDS:
                continue
            pts[0] += PTS[c]
            bouts[0] += IS_BOUT[c]
            if c == EXCUSE and p.side[(p.tally.leader + i) % p.n] != side:
                other_ex[0] = 1
            elif c == PETIT:
                petit[0] = 1

    def sweep_values(self, int side):
        """Every final T a sweep by ``side`` can end with from here (sorted; empty if
        the other side has won a trick): the chelem term, the petit au bout for the
        side or not (while open), and the attack's pile: as it is for a defence sweep,
        plus the Excuse's return (TAROT-EXC-3/4: 8 half points and a bout) if the
        attack holds it; with every live card (and the current trick's) for an attack
        sweep, less the defence's Excuse returned to it (TAROT-EXC-3/4), unless played
        to the last trick (TAROT-EXC-5). Inside a trick the list may hold a value no
        sweep reaches (the petit au bout counted open while the Petit is in the
        trick): a superset, which is what analyse's deductions need."""
        if side not in (0, 1):
            raise ValueError(f"side must be 0 (defence) or 1 (attack), got {side}")
        cdef Pos* p = &self.p
        if is_over(p) or (p.tally.att_tricks if side == 0 else p.tally.def_tricks) > 0:
            return []
        cdef int tp, tb, tex, tpetit
        self.trick_so_far(side, &tp, &tb, &tex, &tpetit)
        cdef int other_ex = (p.side_live[1 - side][0] & EXBIT) != 0 or tex
        cdef int pb_open = petit_au_bout_open(p, side) if p.ntrick == 0 else (
            (p.live[0] & (<uint64_t>1 << PETIT)) != 0 or tpetit
            or (p.tally.petit_trick == p.trick_no - 1
                and p.trick_no == p.total_tricks - 1))
        cdef int e, q, pts, bouts
        out = set()
        for e in range(2 if other_ex else 1):
            if side == 0:
                pts = p.tally.att_pts + 8 * e
                bouts = p.tally.att_bouts + e
            else:
                pts = p.tally.att_pts + p.live_pts + tp - 8 * e
                bouts = p.tally.att_bouts + popcount64(p.live[0] & BOUTS0) + tb - e
            for q in range(2 if pb_open else 1):
                if side == 0:
                    out.add(f_points(p, pts, bouts) - 200 - 10 * p.pb_mult * q)
                else:
                    out.add(f_points(p, pts, bouts) + (400 if p.chelem_announced else 200)
                            + 10 * p.pb_mult * q)
        return sorted(out)

    def sweep_rest_bound(self, int side):
        """The bound of T over the deals ``side`` does not sweep from here: the least
        T of any end the defence does not sweep (side 0), the greatest of any end the
        attack does not sweep (side 1), from the attack's pile now (the least) or with
        every live card and the current trick's (the greatest), the petit au bout
        either way and the chelem term's extreme outside the sweep. With
        ``sweep_probe``: False at x proves T >= min(x + 1, this) (side 0) /
        T <= max(x - 1, this) (side 1)."""
        if side not in (0, 1):
            raise ValueError(f"side must be 0 (defence) or 1 (attack), got {side}")
        cdef int tp, tb, tex, tpetit
        self.trick_so_far(side, &tp, &tb, &tex, &tpetit)
        # outside a defence sweep the chelem term is 0 or +200 (+400 / -200 announced);
        # outside an attack sweep 0 or -200 (announced: -200)
        return sweep_rest(&self.p, side, tp, tb)

    def bound(self, int x, node_budget=None, deadline=None):
        """The fail-soft result of one zero-window search around x: r >= x proves
        T >= r, r < x proves T <= r (in the objective and the game searched: a relaxed
        game's r >= x bounds the real value from below in R_D, from above in R_A);
        None if a limit stopped it. ``value`` is a sequence of these."""
        self._arm(node_budget, deadline)
        cdef int r
        cdef uint64_t rel[2]
        if is_over(&self.p):
            return final_value(&self.p)
        with nogil:
            r = self.search(x, rel)
        if self.aborted:
            return None
        return r

    def _arm(self, node_budget, deadline):
        self.aborted = 0
        self.node_budget = -1 if node_budget is None else int(node_budget) + self.nodes
        self.deadline = -1.0 if deadline is None else now_s() + float(deadline)

    def value(self, node_budget=None, deadline=None, lo=None, hi=None, guess=None):
        """Exact minimax value of the final T by zero-window probes: bisection on the
        proven fail-soft bounds, preceded by two MTD(f) steps when a first ``guess`` is
        given (a guess from the move-ordering line measured worse than plain bisection).
        Returns (value, complete); (None, False) when a limit stopped the search."""
        cdef int blo, bhi, x, r, g, steps = 0
        cdef uint64_t rel[2]
        self._arm(node_budget, deadline)
        if is_over(&self.p):
            self.last_lo = self.last_hi = final_value(&self.p)
            return final_value(&self.p), True
        value_bounds(&self.p, &blo, &bhi)
        if lo is not None:
            blo = max(blo, lo)
        if hi is not None:
            bhi = min(bhi, hi)
        self.last_lo = blo
        self.last_hi = bhi
        g = 0
        if guess is None:
            steps = 2
        else:
            g = guess
        with nogil:
            while blo < bhi:
                if steps < 2:
                    # MTD(f): test the guess, then just above/below the bound found
                    x = g if g > blo else blo + 1
                    if x > bhi:
                        x = bhi
                else:
                    x = blo + (bhi - blo + 1) // 2
                steps += 1
                r = self.search(x, rel)
                if r >= x:
                    g = r + 1
                else:
                    g = r
                if self.aborted:
                    break
                if r >= x:
                    blo = r if r < bhi else bhi
                else:
                    bhi = r if r > blo else blo
        self.last_lo = blo
        self.last_hi = bhi
        if self.aborted:
            return None, False
        return blo, True

    def last_bounds(self):
        """(lo, hi): the interval of the value proven by the last ``value`` call, also
        when a limit stopped it (the probes that finished narrowed it)."""
        return self.last_lo, self.last_hi

    cdef inline int check_limits(self) noexcept nogil:
        if self.node_budget >= 0 and self.nodes >= self.node_budget:
            self.aborted = 1
        elif self.deadline >= 0 and (self.nodes & 1023) == 0 and now_s() > self.deadline:
            self.aborted = 1
        return self.aborted

    cdef inline uint64_t tt_key(self, uint64_t* check, uint64_t* shape=NULL) noexcept nogil:
        """Key of a trick-boundary position up to relative ranks: per suit, the live
        cards in power order with their holders (pext of each hand on the live cards),
        the live honours and bouts (values, T1/T21/EX identities), the live count of
        each plain suit, the leader and the captured-history flags, hashed to 64 bits.
        Positions with the same key are the same game (only order, holders and values
        matter). ``check`` gets a second hash of the same words by another mixer and
        seed: the table stores both and a hit needs both equal, so a wrong value needs
        two independent 64-bit hashes to collide at once. ``shape`` (if not NULL) gets
        the shape key and its check word: the same words but the live honours (mixed
        in last, so the shape's hashes are the key's before them; quasi-symmetry)."""
        cdef Pos* p = &self.p
        cdef uint64_t l0 = 0, l1 = 0, h, g, w
        cdef int i
        cdef Tally* t = &p.tally
        cdef int flags = t.att_bouts | ((t.att_tricks > 0) << 2) | ((t.def_tricks > 0) << 3) \
            | ((t.petit_trick == p.trick_no - 1) << 4)
        l0 = p.live[0]
        l1 = p.live[1]
        h = ZLEAD[p.tally.leader] ^ ZMISC[flags] ^ ZMISC[62 + p.objective]
        g = ~(ZMISC[flags + 32] ^ (ZLEAD[p.tally.leader] >> 7)) + p.objective
        # bouts and honours mixed as words of their own (the honours last, after the
        # shape's words): shifted into one word, the King and Queen of the first suit
        # fell on the bits of EX and T21, so positions trading one for the other shared
        # a key (wrong values, found by a bid analysis)
        w = l0 & BOUTS0
        h = mix64(h ^ w)
        g = mix64b(g + w)
        w = ((<uint64_t>popcount64(l1 & SUIT0))
             ^ (<uint64_t>popcount64(l1 & (SUIT0 << 14)) << 8)
             ^ (<uint64_t>popcount64(l1 & (SUIT0 << 28)) << 16)
             ^ (<uint64_t>popcount64(l1 & (SUIT0 << 42)) << 24)
             ^ (<uint64_t>popcount64(l0) << 32))
        h = mix64(h ^ w)
        g = mix64b(g + w)
        if p.relax:
            w = <uint64_t>(p.relax + 4 * p.relax_trumps + 8 * p.relax_void
                           + 16 * p.relax_discard)
            if p.relax_discard:
                # the deferred discards owed to the defence's tricks (the hands' sizes
                # give the totals)
                for i in range(p.n):
                    w |= <uint64_t>p.tally.owe[i][0] << (8 + 6 * i)
            h = mix64(h ^ (w * <uint64_t>0x9E3779B97F4A7C15))
            g = mix64b(g + w)
        cdef uint64_t w0[MAXP]
        if p.relax_trumps:
            canonical_trumps(p, w0)
        else:
            for i in range(p.n):
                w0[i] = p.hand[i][0]
        for i in range(p.n):
            w = atout_pext(w0[i], l0)
            h = mix64(h ^ w)
            g = mix64b(g + w)
            if p.relax:
                # relaxed: the honours' relative ranks, then the pips only by count
                w = atout_pext(p.hand[i][1] & ~LOW1, l1 & ~LOW1) ^ (
                    (<uint64_t>popcount64(p.hand[i][1] & LOW1 & SUIT0) << 40)
                    | (<uint64_t>popcount64(p.hand[i][1] & LOW1 & (SUIT0 << 14)) << 45)
                    | (<uint64_t>popcount64(p.hand[i][1] & LOW1 & (SUIT0 << 28)) << 50)
                    | (<uint64_t>popcount64(p.hand[i][1] & LOW1 & (SUIT0 << 42)) << 55))
            else:
                w = atout_pext(p.hand[i][1], l1)
            h = mix64(h ^ w)
            g = mix64b(g + w)
        if shape != NULL:
            shape[0] = mix64(h ^ QSALT)
            shape[1] = mix64b(g + QSALT)
        w = l1 & (KINGS1 | QUEENS1 | KNIGHTS1 | JACKS1)
        h = mix64(h ^ w)
        check[0] = mix64b(g + w)
        return h

    cdef inline int opponent_takes(self, int w, int ledsuit, int me, int nt) noexcept nogil:
        """Can a seat of the other side, still to play in this trick after the seat to
        act (nt cards already down), beat w? Double dummy: their hands are known."""
        cdef Pos* p = &self.p
        cdef int j, s
        for j in range(1, p.n - nt):
            s = (p.cur + j) % p.n
            if p.side[s] != me and seat_can_beat(p.hand[s][0], p.hand[s][1], w, ledsuit):
                return 1
        return 0

    cdef inline int partner_takes(self, int w, int ledsuit, int me, int nt) noexcept nogil:
        """Can a seat of the side ``me``, still to play in this trick after the seat to
        act (nt cards already down), beat w?"""
        cdef Pos* p = &self.p
        cdef int j, s
        for j in range(1, p.n - nt):
            s = (p.cur + j) % p.n
            if p.side[s] == me and seat_can_beat(p.hand[s][0], p.hand[s][1], w, ledsuit):
                return 1
        return 0

    cdef inline int lower_neighbour(self, uint64_t live0, uint64_t live1, int c) noexcept nogil:
        # the next lower card of c's suit among live0/live1 (-1: none)
        cdef uint64_t below
        if c < 21:
            below = live0 & TRUMPS & ((<uint64_t>1 << c) - 1)
            return highest_bit(below) if below else -1
        below = live1 & (SUIT0 << (14 * SUIT[c])) & ((<uint64_t>1 << (c - 22)) - 1)
        return 22 + highest_bit(below) if below else -1

    cdef void record_run(self, uint64_t live0, uint64_t live1, uint64_t* m, int c,
                         int* skip_lo, int* skip_top, int* nskip) noexcept nogil:
        """Partition search: c, a card of a run, was merged away (order_moves). Note
        the run's lowest and top cards: if the run's top is kept, the whole run must be
        (search marks its lowest card), so that it is the same run in every position
        of the entry's class and the card searched for it stands for c there too."""
        cdef int t = c, b = c, nx
        cdef uint64_t above
        while True:
            above = (live0 if t < 21 else live1) & ABOVE[t]
            if not above:
                break
            nx = lowest_bit(above) + (0 if t < 21 else 22)
            if not ((m[0] >> nx) & 1 if nx < 22 else (m[1] >> (nx - 22)) & 1):
                break
            t = nx
        while True:
            nx = self.lower_neighbour(live0, live1, b)
            if nx <= PETIT or not ((m[0] >> nx) & 1 if nx < 22 else (m[1] >> (nx - 22)) & 1):
                break
            b = nx
        if nskip[0] < 32:
            skip_lo[nskip[0]] = b
            skip_top[nskip[0]] = t
            nskip[0] += 1

    cdef int lead_branching(self, int c) noexcept nogil:
        """Move ordering (``mobility``): about 4 log2 of how many ways the leader's
        opponents can answer the lead c in this trick (the product of each one's
        reply_choices, the trick's later cards ignored)."""
        cdef Pos* p = &self.p
        cdef int s, f = 0, r, me = p.side[p.cur]
        cdef uint64_t bnd = trump_class_bounds(p) if p.relax_trumps else 0
        for s in range(p.n):
            if p.side[s] != me:
                r = reply_choices(p, s, SUIT[c], c if c < 21 else -1, bnd)
                f += LOG4[r if r < 32 else 31]
        return f

    cdef int attack_ruffs(self, int L, int nt) noexcept nogil:
        """R_DV: does the attack surely take a trick of plain suit L, whatever is
        played (nt cards down)? An attack seat still to play after the seat to act is
        void in L and holds trumps but not the Excuse, so it must trump (TAROT-PLAY-4.3),
        and its lowest trump beats the trick's highest trump so far and every trump of
        a defender still to play that is void in L (TAROT-PLAY-5)."""
        cdef Pos* p = &self.p
        cdef uint64_t suit = SUIT0 << (14 * L), t
        cdef int j, s, att = -1, dfn = p.wt
        for j in range(1, p.n - nt):
            s = (p.cur + j) % p.n
            t = p.hand[s][0] & TRUMPS
            if (p.hand[s][1] & suit) or not t:
                continue                       # follows L, or cannot trump
            if not p.side[s]:
                if highest_bit(t) > dfn:
                    dfn = highest_bit(t)
            elif not (p.hand[s][0] & EXBIT) and lowest_bit(t) > att:
                att = lowest_bit(t)
        return att > dfn

    cdef void void_one_card(self, uint64_t* mm, int wc, int wside, int ledsuit,
                            int nt) noexcept nogil:
        """R_DV (order_moves, a defender to play): in a suit the attack holds no card
        of, the defence's cards have no rank for the rest of the deal, so when the
        attack surely takes this trick -- its card is winning and no defender still to
        play can beat it, or an attack seat still to play must ruff above every trump
        the defence could add (attack_ruffs) -- the seat's poorest card of such a suit
        (below wc) stands for all: keeping the richer is never worse where it cannot
        win a trick the poorer would not. Leading (or after a led Excuse), per suit.

        The other way round, when the defence surely takes this trick (a defender is
        winning and no attack seat is still to play), the seat's richest card of such a
        suit stands for all of it, where which of them it plays cannot change who
        takes the trick (a trump is in it, the card is a discard, or no attack seat
        followed the led suit: void_ties)."""
        cdef Pos* p = &self.p
        cdef int i, j, c, sure = 0, sure_def = 0, att_followed = 0
        cdef int leading = p.led < 0, base = p.ply - p.ntrick
        cdef uint64_t suit, vs, att = p.side_live[1][1]
        for i in range(4):
            if not (att & (SUIT0 << (14 * i))) and (mm[1] & (SUIT0 << (14 * i))):
                break
        else:
            return                            # no suit of the seat is the attack's void
        if not leading:
            sure = (wc >= 0 and wside == 1 and not is_pip(wc)
                    and not self.partner_takes(wc, ledsuit, 0, nt)) \
                or (p.led >= 22 and self.attack_ruffs(SUIT[p.led], nt))
            if not sure and wc >= 0 and wside == 0:
                sure_def = 1
                for j in range(1, p.n - nt):
                    if p.side[(p.cur + j) % p.n]:
                        sure_def = 0          # an attack seat is still to play
                        break
                if sure_def and p.wt < 0 and p.led >= 22:
                    for j in range(nt):
                        c = p.played[base + j]
                        if c >= 22 and SUIT[c] == SUIT[p.led] \
                                and p.side[(p.tally.leader + j) % p.n]:
                            att_followed = 1
                            break
        for i in range(4):
            suit = SUIT0 << (14 * i)
            if att & suit:
                continue
            vs = mm[1] & suit
            if sure_def:
                if (vs & (vs - 1)) and not (att_followed and i == ledsuit):
                    mm[1] &= ~(vs & ~(<uint64_t>1 << highest_bit(vs)))
                continue
            if wc >= 22 and SUIT[wc] == i:
                vs &= (<uint64_t>1 << (wc - 22)) - 1
            if not (vs & (vs - 1)):
                continue
            if sure or (leading and self.attack_ruffs(i, nt)):
                mm[1] &= ~(vs & ~(vs & (~vs + 1)))

    cdef int order_moves(self, uint64_t* m, int* moves, int* skip_lo, int* skip_top,
                         int* nskip) noexcept nogil:
        """Candidate cards of the legal mask m after merging equivalent cards, best
        first by a cheap heuristic. Returns their number.

        Merging: a *run* is a chain of the seat's legal cards of one suit with no other
        live card (nor a card of this trick) between them, so they have the same power
        now and for the rest of the deal. Playing one or another of a run leads to the
        same game up to swapping the two cards, so only their points differ: the side
        of the seat that takes this trick gets the card played now, the card kept
        falls later. Hence (``use_merge2``, points-aware): when the seat's side surely
        wins this trick whatever follows, only the run's richest card (its top) is
        searched; when it surely loses it, only its poorest; otherwise one card per
        value (also the rule without ``use_merge2``). The objective is nondecreasing in
        the attack's points and bouts, and within a run a richer card is never fewer
        bouts. The Petit (petit au bout depends on its trick) and the Excuse are never
        merged."""
        cdef Pos* p = &self.p
        if popcount64(m[0]) + popcount64(m[1]) == 1:
            # one legal card: nothing to merge or order
            moves[0] = lowest_bit(m[0]) if m[0] else 22 + lowest_bit(m[1])
            return 1
        cdef int seat = to_act(p)
        cdef int me = p.side[seat]
        cdef uint64_t live0 = 0, live1 = 0
        cdef int i, c, h, k = 0, lw, bottom
        cdef uint64_t above
        cdef int scores[32]
        cdef int base = p.ply - p.ntrick
        cdef int nt = p.ntrick
        cdef int wc = p.wc, wside = -1, sc, beats, sure_win, sure_loss, top_in_run
        cdef int ledsuit = SUIT[p.led] if p.led >= 0 else -1
        live0 = p.live[0]
        live1 = p.live[1]
        for i in range(nt):          # the trick's cards still separate ranks in it
            c = p.played[base + i]
            if c < 22:
                live0 |= <uint64_t>1 << c
            elif c < NCARDS:
                live1 |= <uint64_t>1 << (c - 22)
        if p.wi >= 0:
            wside = p.side[(p.tally.leader + p.wi) % p.n]
        cdef uint64_t mm[2]
        cdef uint64_t pips
        mm[0] = m[0]
        mm[1] = m[1]
        if p.relax and self.use_merge:
            # relaxed: a hand's pips of a suit are one card (no rank): its lowest
            for i in range(4):
                pips = mm[1] & LOW1 & (SUIT0 << (14 * i))
                if pips & (pips - 1):
                    mm[1] &= ~(pips & ~(pips & (~pips + 1)))
        if p.relax_void and self.use_void and not me:
            self.void_one_card(mm, wc, wside, ledsuit, nt)
        cdef uint64_t cls_free = 0, bnd
        if p.relax_trumps and self.use_merge and not me:
            # R_DT: a defender's trumps of one class are one card: its lowest
            bnd = trump_class_bounds(p)
            cls_free = mm[0] & TRUMPS & ~bnd
            mm[0] = (mm[0] & ~cls_free) | class_lowest(cls_free, bnd)
        cdef uint64_t fol, blk, cand = 0, low = 0, keep1 = 0
        cdef int su
        if self.use_lowest and not self.use_part and wc >= 0 and 0 <= ledsuit < 4 \
                and wside != me and not is_pip(wc) \
                and ((p.relax == RELAX_DEFENCE and me) or (p.relax == RELAX_ATTACK and not me)):
            # part of the relaxed games (``lowest``), for the side their proofs run
            # against only (the attack in the games below the real one, which prove
            # made; the defence in R_A, which proves failed): into a trick that side
            # surely loses, of its cards of a plain suit only the lowest (following:
            # those that do not beat the winner; discarding: each suit's). Taking
            # choices from that side keeps the game on its side of the real one. Not
            # a dominance: a higher card is not always better to keep (it may be forced
            # to win a later trick), so the real game keeps every card. Not with
            # partition search (relax_part: its classes would need the kept card marked)
            fol = mm[1] & (SUIT0 << (14 * ledsuit))
            if fol:
                cand = fol if wc < 22 or SUIT[wc] != ledsuit \
                    else fol & ((<uint64_t>1 << (wc - 22)) - 1)
            elif not (mm[0] & TRUMPS):
                cand = mm[1]
            for su in range(4):
                blk = cand & (SUIT0 << (14 * su))
                if blk & (blk - 1):
                    keep1 |= blk & (~blk + 1)
                    low |= blk & ~keep1
            if keep1 and not self.partner_takes(wc, ledsuit, me, nt):
                mm[1] &= ~low
            else:
                keep1 = 0
        # merge2 in the relaxed games (merge2_relaxed): a pip has no rank there, so a
        # run stops at the pips and no trick a pip is winning is called sure
        # set_trump_leads_last applies to the defence's leads in the games whose proofs
        # it refutes (the real game, R_A): read here, as set_relax may change the game
        cdef int def_last = wc < 0 and not me \
            and (p.relax == RELAX_NONE or p.relax == RELAX_ATTACK)
        cdef int m2 = self.use_merge2 or (p.relax and self.use_m2rx and self.saved_merge2
                                          and not is_pip(wc))
        while mm[0] | mm[1]:
            c = next_card(mm)
            beats = 0
            sure_win = 0
            sure_loss = 0
            if c != EXCUSE:
                if wc < 0:
                    beats = 1
                    sure_win = not self.opponent_takes(c, SUIT[c], me, nt)
                else:
                    if c < 21:
                        beats = wc >= 21 or c > wc
                    else:
                        beats = wc >= 22 and SUIT[c] == SUIT[wc] and c > wc
                    if beats or wside == me:
                        # (opponent_takes is false for the last seat: nobody is left)
                        sure_win = not self.opponent_takes(c if beats else wc, ledsuit,
                                                           me, nt)
                    else:
                        sure_loss = not self.partner_takes(wc, ledsuit, me, nt)
            if self.use_merge and c != EXCUSE and c != PETIT \
                    and not (c >= 22 and (keep1 >> (c - 22)) & 1) \
                    and not (p.relax and is_pip(c)) \
                    and not (c < 21 and (cls_free >> c) & 1):
                # (relaxed, a pip stands for the hand's pips of its suit already)
                # h: the next higher card of c's suit not yet gone; in m means it is the
                # seat's and legal, so c and h are of one run
                h = -1
                if c < 21:
                    above = live0 & ABOVE[c]
                    if above and (m[0] >> lowest_bit(above)) & 1:
                        h = lowest_bit(above)
                else:
                    above = live1 & ABOVE[c]
                    if above and (m[1] >> lowest_bit(above)) & 1:
                        h = 22 + lowest_bit(above)
                if m2 and sure_win:
                    if h >= 0:
                        if self.use_part:
                            self.record_run(live0, live1, m, c, skip_lo, skip_top, nskip)
                        continue                  # only the run's top (richest)
                elif m2 and sure_loss:
                    # only the highest card of the run's poorest value
                    bottom = c
                    lw = self.lower_neighbour(live0, live1, c)
                    while lw > PETIT and ((m[0] >> lw) & 1 if lw < 22
                                          else (m[1] >> (lw - 22)) & 1) \
                            and not (p.relax and is_pip(lw)):
                        bottom = lw
                        lw = self.lower_neighbour(live0, live1, lw)
                    if PTS[c] != PTS[bottom] or (h >= 0 and PTS[h] == PTS[c]):
                        if self.use_part:
                            self.record_run(live0, live1, m, c, skip_lo, skip_top, nskip)
                        continue
                elif h >= 0 and PTS[h] == PTS[c]:
                    if self.use_part:
                        self.record_run(live0, live1, m, c, skip_lo, skip_top, nskip)
                    continue                      # equal value: one of them
            moves[k] = c
            if self.use_order:
                if c == EXCUSE:
                    sc = 0
                    if self.excuse_last and def_last:
                        sc = -200                 # set_trump_leads_last: after all
                elif wc < 0:
                    # leading: sure tricks first (no opponent can follow above or
                    # trump it), else low
                    if c < 21 and ((self.trumps_last and def_last)
                                   or (self.att_trumps_last and me and not sure_win)):
                        # set_trump_leads_last: the defence's trumps after its plain
                        # leads; set_attack_trump_leads_last: the attack's that may
                        # lose after its plain leads; bouts first among them
                        sc = -100 + PTS[c]
                    elif sure_win:
                        sc = 40 + PTS[c]
                    else:
                        above = (live0 if c < 21 else live1) & ABOVE[c]
                        sc = -PTS[c] - popcount64(above)
                else:
                    if wside == me and not beats and sure_win:
                        sc = 10 + 2 * PTS[c]                        # ours: add points
                    elif beats and sure_win:
                        if wside == me:
                            sc = 10 + 2 * PTS[c] - 5
                        else:
                            sc = 30 - (c % 22) + 2 * PTS[c]         # take it, cheaply
                    else:
                        sc = LOST_SC[c]                             # lost: lowest first
                if self.use_mobility and me and wc < 0:
                    # the attack's lead that leaves the opponents the fewest answers
                    # first: where it succeeds, the smaller tree to prove it
                    sc -= self.lead_branching(c)
                scores[k] = sc
            k += 1
        if self.use_order:
            # insertion sort, best first
            for i in range(1, k):
                c = moves[i]
                sc = scores[i]
                h = i - 1
                while h >= 0 and scores[h] < sc:
                    moves[h + 1] = moves[h]
                    scores[h + 1] = scores[h]
                    h -= 1
                moves[h + 1] = c
                scores[h + 1] = sc
        return k

    cdef inline uint64_t part_key(self, uint64_t* gcheck, uint64_t* W) noexcept nogil:
        """Partition search's keys of a trick-boundary position. Returns the group's
        hash (the bucket), ``gcheck`` a second hash of it (mixed with the table's
        generation), and ``W[i]`` each hand's pattern word: bit j of the field of a
        suit is set when the hand holds the j-th lowest live low card of that suit
        (the four plain suits packed from bit 0, at most 40 bits, the trumps from bit
        40, at most 19). The group: leader, history flags, each hand's point cards
        (T1, T21, EX, honours: identities) and its count of low cards per suit. Within
        a group a position is its patterns; an entry keeps only some of the bits."""
        cdef Pos* p = &self.p
        cdef uint64_t L0 = p.live[0] & LOW0, L1 = p.live[1] & LOW1, h, g, w, c
        cdef int i, s
        cdef Tally* t = &p.tally
        cdef int flags = t.att_bouts | ((t.att_tricks > 0) << 2) | ((t.def_tricks > 0) << 3) \
            | ((t.petit_trick == p.trick_no - 1) << 4)
        h = ZLEAD[p.tally.leader] ^ ZMISC[flags] ^ ZMISC[62 + p.objective]
        g = ~(ZMISC[flags + 32] ^ (ZLEAD[p.tally.leader] >> 7)) + p.objective
        if p.relax:
            h = mix64(h ^ (<uint64_t>p.relax * <uint64_t>0x9E3779B97F4A7C15))
            g = mix64b(g + <uint64_t>p.relax)
        for i in range(p.n):
            # point cards: T1 (bit 0), T21, EX (bits 20, 21) fall on pip bits, cleared
            w = (p.hand[i][1] & ~LOW1) | (p.hand[i][0] & ~LOW0)
            h = mix64(h ^ w)
            g = mix64b(g + w)
            c = <uint64_t>popcount64(p.hand[i][0] & LOW0)
            for s in range(4):
                c = (c << 5) | <uint64_t>popcount64(p.hand[i][1] & LOW1 & (SUIT0 << (14 * s)))
            h = mix64(h ^ c ^ (<uint64_t>i << 40))
            g = mix64b(g + c + (<uint64_t>i << 40))
            W[i] = atout_pext(p.hand[i][1], L1) | (atout_pext(p.hand[i][0], L0) << 40)
        gcheck[0] = g ^ mix64(<uint64_t>self.tt_gen * <uint64_t>0x9E3779B97F4A7C15 + 1)
        return h

    cdef inline uint64_t pat_hash(self, uint64_t gkey, uint64_t M, uint64_t* W) noexcept nogil:
        # the kept pattern: the hands' bits under the mask M, with the mask and group
        cdef uint64_t h = mix64b(gkey ^ (M * <uint64_t>0xD6E8FEB86659FD93))
        cdef int i
        for i in range(self.p.n - 1):       # the last hand holds the remaining bits
            h = mix64b(h ^ (W[i] & M) ^ (<uint64_t>(i + 1) << 59))
        return h

    cdef void verify_hit(self, int x, int v) noexcept nogil:
        # verify_class_hits: the same question answered by a search without the table
        cdef uint64_t rel[2]
        cdef int tt = self.use_tt, part = self.use_part, r
        self.use_tt = 0
        self.use_part = 0
        r = self.search(x, rel)
        self.use_tt = tt
        self.use_part = part
        if not self.aborted:
            self.verify_n += 1
            if (r >= x) != (v >= x):
                self.verify_bad += 1

    cdef inline int quasi_cut(self, int lb, int ub, int lb_p, int ub_p, uint16_t rep,
                              int x, int p0, int off, int* v) noexcept nogil:
        """A shape entry's bounds (lb / ub proven at lb_p / ub_p, the representative's
        honours rep) widened for this position: 1 and the bound in v if it cuts at x.
        Margin (p0 = 0, off = P0): the bound moves by what the matched honours are worth
        less / more; T (off = 0): the points it was proven at move instead."""
        cdef uint16_t hon = honours16(self.p.live[1])
        cdef int less = hon_table(HON_LESS, rep, hon), more = hon_table(HON_MORE, rep, hon)
        if self.p.objective == OBJ_MARGIN:
            if lb > LO_INF and lb - less + off >= x:
                v[0] = lb - less + off
                return 1
            if ub < HI_INF and ub + more + off < x:
                v[0] = ub + more + off
                return 1
            return 0
        if lb >= x and lb_p + less <= p0:
            v[0] = lb
            return 1
        if ub < x and ub_p - more >= p0:
            v[0] = ub
            return 1
        return 0

    cdef void verify_bound(self, int x, int v) noexcept nogil:
        # verify_class_hits, for a quasi-symmetry cut: the bound v it returned holds
        # (value >= v when v >= x, value <= v otherwise), by a search without the table
        cdef uint64_t rel[2]
        cdef int tt = self.use_tt, r
        self.use_tt = 0
        if v >= x:
            r = self.search(v, rel) >= v
        else:
            r = self.search(v + 1, rel) < v + 1
        self.use_tt = tt
        if not self.aborted:
            self.verify_n += 1
            if not r:
                self.verify_bad += 1

    cdef void part_put(self, uint64_t bucket, uint64_t gcheck, uint64_t pat, uint64_t M,
                       bint exact, int x, int v, int best, int rank) noexcept nogil:
        """Write a bound into the partition table's bucket: the same entry (same group
        check and pattern hash; for a class entry, the same mask) updated in place,
        else a dead entry, else the shallowest of the first size - 1 when the new one
        is at least as deep, else the last (always-replace) slot. An exact entry's mask
        is the union of the classes its bounds were proven for (what a hit reports); a
        shape entry's (SHAPE_FLAG | honours, in an exact bucket) names its
        representative, one entry each."""
        cdef int size = XBUCKET if exact else PBUCKET
        cdef uint64_t b = (bucket & self.tt_mask) & ~(<uint64_t>(size - 1))
        cdef PEntry* e = (<PEntry*>self.tt) + b
        cdef uint32_t* meta = self.pmeta + b
        cdef PEntry* s = NULL
        cdef int i, d, dmin = 99, imin = 0
        cdef int depth = self.p.total_tricks - self.p.trick_no
        if rank >= 0:
            depth = rank
        cdef uint32_t me = part_meta(gcheck, self.tt_gen, depth), g8 = (self.tt_gen & 0xFF) << 16
        cdef int p0, off
        store_offsets(&self.p, &p0, &off)
        v -= off
        x -= off
        for i in range(size):
            if (meta[i] & 0xFFFFFF) == (me & 0xFFFFFF) and e[i].gcheck == gcheck \
                    and e[i].pat == pat and ((exact and not (M & SHAPE_FLAG))
                                             or (e[i].mask & (PAT_MASK | SHAPE_FLAG)) == M):
                s = &e[i]
                s.mask |= M
                if <uint32_t>depth > (meta[i] >> 24):
                    meta[i] = (meta[i] & 0xFFFFFF) | (<uint32_t>depth << 24)
                break
        if s == NULL:
            for i in range(size):
                if (meta[i] & 0xFF0000) != g8:
                    s = &e[i]
                    imin = i
                    break
            if s == NULL:
                for i in range(size - 1):
                    d = <int>(meta[i] >> 24)
                    if d < dmin:
                        dmin = d
                        imin = i
                if depth < dmin:
                    imin = size - 1
                s = &e[imin]
            meta[imin] = me
            s.gcheck = gcheck
            s.pat = pat
            s.mask = M
            s.lb = LO_INF
            s.ub = HI_INF
            s.lb_p = 0
            s.ub_p = 255
            s.best = NOMOVE
        cdef int lb = s.lb, lb_p = s.lb_p, ub = s.ub, ub_p = s.ub_p
        add_bound(x, v, p0, &lb, &lb_p, &ub, &ub_p)
        s.lb = lb
        s.lb_p = lb_p
        s.ub = ub
        s.ub_p = ub_p
        if best != NOMOVE:
            s.best = best

    cdef void part_store(self, uint64_t gkey, uint64_t gcheck, uint64_t xpat, uint64_t* W,
                         uint64_t* rel, int x, int v, int best, int rank) noexcept nogil:
        """Store a proven bound twice (``rank``: the replacement rank, see part_put): for this exact position (its own bucket, as an
        exact-key table would, so that no hit of such a table is lost to crowding) and,
        when some low cards are free, for the class the marks rel define (kept_low), in
        its group's bucket. (Measured: choosing the class bucket by the holders of the
        top one or two low cards of each suit, always kept, spreads a group over more
        buckets but frees fewer cards: 1.1-2.9x more nodes than one bucket a group.)"""
        cdef Pos* p = &self.p
        cdef uint64_t L0 = p.live[0] & LOW0, L1 = p.live[1] & LOW1, M, full, pat
        cdef uint64_t kept[2]
        kept_low(rel, L0, L1, kept)
        M = atout_pext(kept[1], L1) | (atout_pext(kept[0], L0) << 40)
        full = atout_pext(L1, L1) | (atout_pext(L0, L0) << 40)
        self.part_put(mix64(xpat), gcheck, xpat, M, True, x, v, best, rank)
        if M != full:
            self.part_stores += 1
            self.part_free += popcount64(L0 & ~kept[0]) + popcount64(L1 & ~kept[1])
            pat = self.pat_hash(gkey, M, W)
            self.part_put(gkey, gcheck, pat, M, False, x, v, best, rank)

    cdef int search(self, int x, uint64_t* rel) noexcept nogil:
        """Fail-soft null-window minimax around x: a result v >= x proves T >= v, a
        result v < x proves T <= v (attack maximises T, defence minimises).

        Partition search (``use_part``): ``rel`` returns the low cards whose rank
        decided the result (marks; see kept_low): trick winners that beat a card of
        their suit, the highest trump a seat had to overtrump, the ranks the bounds
        read, the runs merged beside kept cards, and a table entry's kept cards. The
        result then holds for every position that differs only in the low cards
        below the lowest mark of each suit (each worth a half point, held in the same
        numbers by the same hands), and the table stores it for all of them."""
        cdef Pos* p = &self.p
        cdef int lo, hi, i, j, k, v, r, maximizing, best = NOMOVE, boundary, completes
        cdef int changed, ot_min = -1, p0 = 0, off = 0, size, ties
        cdef uint64_t key = 0, check = 0, M, xpat = 0, L0, L1, last_h = 0, bidx, xb
        cdef uint32_t tag
        cdef uint64_t last_m = <uint64_t>(-1)
        cdef TTEntry* e = NULL
        cdef PEntry* pe = NULL
        cdef int ttbest = NOMOVE
        cdef int moves[32]
        cdef int skip_lo[32]
        cdef int skip_top[32]
        cdef int nskip = 0
        cdef uint64_t m[2]
        cdef uint64_t crel[2]
        cdef uint64_t acc[2]
        cdef uint64_t nm[2]
        cdef uint64_t W[MAXP]
        cdef uint64_t shape[2]
        cdef uint64_t qcheck
        cdef int hit = 0, d, rank
        cdef int64_t n0 = self.nodes
        shape[0] = 0
        rel[0] = 0
        rel[1] = 0
        if self.check_limits():
            # before the node is counted, leaves included: a budget of b nodes counts
            # at most b (checked after the count, a leaf at the b-th node let one more
            # through)
            return 0
        self.nodes += 1
        if is_over(p):
            self.tstat[MAXTRICKS - 1][1] += 1
            return final_value(p)
        self.tstat[p.trick_no][0] += 1
        if p.trick_no >= self.hz_trick and p.ntrick == 0:
            # horizon leaf: its value is the static evaluation (inside value_bounds,
            # which therefore stay valid bounds of the truncated game)
            self.hz_leaves += 1
            rel[0] = p.live[0] & LOW0
            rel[1] = p.live[1] & LOW1
            return static_eval(p)
        boundary = p.ntrick == 0
        if boundary:
            if self.use_bounds:
                value_bounds(p, &lo, &hi)
                if lo >= x:
                    self.tstat[p.trick_no][2] += 1
                    if self.use_part:
                        return bounds_rel(p, x, lo, rel)
                    return lo
                if hi < x:
                    self.tstat[p.trick_no][2] += 1
                    if self.use_part:
                        return bounds_rel(p, x, hi, rel)
                    return hi
            if self.use_tt:
                store_offsets(p, &p0, &off)
            if self.use_tt and self.use_part:
                key = self.part_key(&check, W)
                self.tt_probes += 1
                L0 = p.live[0] & LOW0
                L1 = p.live[1] & LOW1
                xpat = self.pat_hash(key ^ XSALT, atout_pext(L1, L1) | (atout_pext(L0, L0) << 40), W)
                tag = part_meta(check, self.tt_gen, 0) & 0xFFFFFF
                # both buckets' meta lines at once (their cache misses overlap); the
                # exact position first, then its classes
                xb = (mix64(xpat) & self.tt_mask) & ~(<uint64_t>(XBUCKET - 1))
                prefetch(self.pmeta + ((key & self.tt_mask) & ~(<uint64_t>(PBUCKET - 1))))
                prefetch(self.pmeta + xb)
                # and the exact bucket's entries (two lines), read right after its
                # meta line: x1.04-1.06 the speed (4p real game, 15 tricks left)
                prefetch((<PEntry*>self.tt) + xb)
                prefetch((<PEntry*>self.tt) + xb + 2)
                for j in range(2):
                    if j == 0:
                        bidx = xb
                        size = XBUCKET
                    else:
                        bidx = (key & self.tt_mask) & ~(<uint64_t>(PBUCKET - 1))
                        size = PBUCKET
                    pe = (<PEntry*>self.tt) + bidx
                    for i in range(size):
                        if (self.pmeta[bidx + i] & 0xFFFFFF) != tag or pe[i].gcheck != check:
                            continue
                        M = pe[i].mask & PAT_MASK
                        if j and M != last_m:
                            # a group's entries often share a mask: hash each mask once
                            last_m = M
                            last_h = self.pat_hash(key, M, W)
                        if pe[i].pat != (xpat if j == 0 else last_h):
                            continue
                        self.tt_hits += 1
                        if j == 0:
                            hit = 1
                        if (pe[i].lb + off >= x and pe[i].lb_p <= p0) \
                                or (pe[i].ub + off < x and pe[i].ub_p >= p0):
                            # the entry's kept cards, in this position
                            rel[1] = atout_pdep(M & ((<uint64_t>1 << 40) - 1), L1)
                            rel[0] = atout_pdep(M >> 40, L0)
                            v = (pe[i].lb if pe[i].lb + off >= x and pe[i].lb_p <= p0
                                 else pe[i].ub) + off
                            self.tstat[p.trick_no][3] += 1
                            if j:
                                self.part_hits += 1
                                if self.verify_left >= p.total_tricks - p.trick_no:
                                    self.verify_hit(x, v)
                            return v
                        if ttbest == NOMOVE:
                            ttbest = pe[i].best
                if self.use_quasi and p.objective == OBJ_T \
                        and self.hz_trick >= p.total_tricks:
                    # quasi-symmetry in the partition table: shape entries live in the
                    # exact buckets (mask: SHAPE_FLAG | the representative's honours);
                    # a cut claims its bound for this exact position only (every low
                    # card kept), which the isomorphism proves. Under T only: (b)'s
                    # probes x1.27 / 1.45 at 12 / 13 left, but under the margin the
                    # kept cards cost the classes above ((a) x0.975, one real-game fail
                    # proof x0.26)
                    self.tt_key(&qcheck, shape)
                    if not hit:
                        bidx = (shape[0] & self.tt_mask) & ~(<uint64_t>(XBUCKET - 1))
                        pe = (<PEntry*>self.tt) + bidx
                        tag = part_meta(shape[1], self.tt_gen, 0) & 0xFFFFFF
                        for i in range(XBUCKET):
                            if (self.pmeta[bidx + i] & 0xFFFFFF) != tag \
                                    or pe[i].gcheck != shape[1] or pe[i].pat != shape[0] \
                                    or not (pe[i].mask & SHAPE_FLAG):
                                continue
                            self.quasi_found += 1
                            if self.quasi_cut(pe[i].lb, pe[i].ub, pe[i].lb_p, pe[i].ub_p,
                                              <uint16_t>(pe[i].mask & 0xFFFF), x, p0, off,
                                              &d):
                                rel[0] = p.live[0] & LOW0
                                rel[1] = p.live[1] & LOW1
                                self.quasi_cuts += 1
                                self.tstat[p.trick_no][3] += 1
                                if self.verify_left >= p.total_tricks - p.trick_no:
                                    self.verify_bound(x, d)
                                return d
            elif self.use_tt:
                if self.use_quasi and self.hz_trick >= p.total_tricks:
                    # (not under a horizon: the static evaluation reads the honours)
                    key = self.tt_key(&check, shape)
                else:
                    key = self.tt_key(&check)
                    shape[0] = 0
                self.tt_probes += 1
                if shape[0]:
                    prefetch(self.tt_bucket(shape[0]))
                e = self.tt_find(key, check)
                if e != NULL:
                    self.tt_hits += 1
                    if e.lb + off >= x and e.lb_p <= p0:
                        self.tstat[p.trick_no][3] += 1
                        return e.lb + off
                    if e.ub + off < x and e.ub_p >= p0:
                        self.tstat[p.trick_no][3] += 1
                        return e.ub + off
                    ttbest = e.best
                elif shape[0]:
                    # quasi-symmetry: the shape's representative (quasi_cut)
                    e = self.tt_find(shape[0], shape[1])
                    if e != NULL:
                        self.quasi_found += 1
                        if self.quasi_cut(e.lb, e.ub, e.lb_p, e.ub_p, e.hon, x, p0, off,
                                          &d):
                            self.quasi_cuts += 1
                            self.tstat[p.trick_no][3] += 1
                            if self.verify_left >= p.total_tricks - p.trick_no:
                                self.verify_bound(x, d)
                            return d
        legal_mask(p, m)
        nm[0] = 0
        nm[1] = 0
        if self.use_part and p.wt >= 0 and m[1] == 0 and (m[0] & TRUMPS) \
                and (p.hand[p.cur][0] & LOW0):
            # the seat must play a trump, above the trick's highest one W if it can
            # (TAROT-PLAY-4.2/5): which of its trumps are legal depends on W's rank,
            # unless all its trumps are kept (then all are above an abstracted W in
            # every position of the class): W is marked below if its lowest low trump
            # ends up free
            ot_min = lowest_bit(p.hand[p.cur][0] & LOW0)
        acc[0] = nm[0]
        acc[1] = nm[1]
        k = self.order_moves(m, moves, skip_lo, skip_top, &nskip)
        if p.relax_discard and not p.side[p.cur] and p.led >= 0:
            k = self.rdd_moves(moves, k)
        if ttbest != NOMOVE:
            for i in range(k):
                if moves[i] == ttbest:
                    j = i
                    while j > 0:
                        moves[j] = moves[j - 1]
                        j -= 1
                    moves[0] = ttbest
                    break
        maximizing = p.side[to_act(p)]
        r = LO_INF if maximizing else HI_INF
        completes = p.ntrick == p.n - 1
        for i in range(k):
            ties = pip_ties(p, moves[i]) if completes and p.relax else 0
            if ties:
                v = self.search_ties(x, moves[i], ties, crel)
            else:
                play_card(p, moves[i])
                v = self.search(x, crel)
                if completes and self.use_part:
                    trick_rel(&p.played[p.ply - p.n], p.n, crel)
                undo_card(p)
            if self.aborted:
                return 0
            if maximizing:
                if v > r:
                    r = v
                if v >= x:
                    best = moves[i]
            else:
                if v < r:
                    r = v
                if v < x:
                    best = moves[i]
            if best != NOMOVE:
                # a cut: the bound rests on this card's subtree alone
                rel[0] = nm[0] | crel[0]
                rel[1] = nm[1] | crel[1]
                if ot_min >= 0 and not is_kept(rel, ot_min):
                    mark_low(rel, p.wt)
                break
            acc[0] |= crel[0]
            acc[1] |= crel[1]
        if best == NOMOVE:
            self.no_cut += 1
            if self.use_part:
                # every card was needed: the merged-away ones too, through the card
                # searched for their run, which stands for them only where the run is
                # the same run (all kept) or all of it is interchangeable (none kept)
                if ot_min >= 0 and not is_kept(acc, ot_min):
                    mark_low(acc, p.wt)
                changed = nskip > 0
                while changed:
                    changed = 0
                    for i in range(nskip):
                        if is_kept(acc, skip_top[i]) and not is_kept(acc, skip_lo[i]):
                            mark_low(acc, skip_lo[i])
                            changed = 1
                rel[0] = acc[0]
                rel[1] = acc[1]
        elif best == moves[0]:
            self.cut_first += 1
        else:
            self.cut_later += 1
        if p.relax and self.use_part:
            # relaxed: the pips have no rank, only their counts per hand and suit (in
            # the group key) matter: every class frees them all
            rel[1] &= ~LOW1
        if boundary and self.use_tt:
            rank = self.effort_rank(n0)
            if self.use_part:
                self.part_store(key, check, xpat, W, rel, x, r, best, rank)
                if shape[0]:
                    self.part_put(shape[0], shape[1], shape[0],
                                  SHAPE_FLAG | honours16(p.live[1]), True, x, r, NOMOVE,
                                  rank)
            else:
                self.tt_store(key, check, x, r, best, -1, rank)
                if shape[0]:
                    self.tt_store(shape[0], shape[1], x, r, NOMOVE,
                                  honours16(p.live[1]), rank)
        return r

    cdef inline int effort_rank(self, int64_t n0) noexcept nogil:
        """The replacement rank of an entry whose bounds a search begun at node count
        n0 proved (``tt_effort``): 2 + log2 of the nodes spent; -1 without tt_effort
        (the tables then rank by cards or tricks left)."""
        if not self.use_effort:
            return -1
        return 2 + highest_bit(<uint64_t>(self.nodes - n0))

    cdef int rdd_moves(self, int* moves, int k) noexcept nogil:
        """R_DD, a defender to play after the lead: without trumps nor the Excuse, a
        seat that cannot follow defers its discard (PHANTOM: any card it could throw
        now, the defence chooses which once the deal has shown what it needs); one that
        can follow may instead pay every card it holds of the led suit as discards it
        deferred (if it owes that many) and defer one more. The real game's discards
        are these moves with the choice made at once, so R_DD <= R_DV."""
        cdef Pos* p = &self.p
        cdef int seat = p.cur, ledsuit, s, oa, od, j
        cdef uint64_t follow
        if p.hand[seat][0] & (TRUMPS | EXBIT):
            return k
        ledsuit = SUIT[p.led]
        if ledsuit == 4:
            moves[0] = PHANTOM
            return 1
        follow = p.hand[seat][1] & (SUIT0 << (14 * ledsuit))
        if not follow:
            moves[0] = PHANTOM
            return 1
        s = popcount64(follow)
        oa = p.tally.owe[seat][1]
        od = p.tally.owe[seat][0]
        if s <= oa + od:
            for j in range(s - oa if s > oa else 0, (s if s < od else od) + 1):
                moves[k] = PAYBASE + 32 * ledsuit + j
                k += 1
        return k

    cdef int search_ties(self, int x, int c, int ties, uint64_t* rel) noexcept nogil:
        """Relaxed games: the value of c completing a trick whose pips tie (pip_ties),
        the chooser (the defence in R_D, the attack in R_A) picking its winner. ``rel``:
        the marks of every winner searched (partition search)."""
        cdef Pos* p = &self.p
        cdef int w, v, r, chooser_min = p.relax == RELAX_DEFENCE
        cdef uint64_t crel[2]
        rel[0] = 0
        rel[1] = 0
        r = HI_INF if chooser_min else LO_INF
        for w in range(p.n):
            if not (ties >> w) & 1:
                continue
            p.force_wi = w
            play_card(p, c)
            v = self.search(x, crel)
            if self.use_part:
                trick_rel(&p.played[p.ply - p.n], p.n, crel)
                rel[0] |= crel[0]
                rel[1] |= crel[1]
            undo_card(p)
            if self.aborted:
                return 0
            if chooser_min:
                if v < r:
                    r = v
                if r < x:
                    break
            else:
                if v > r:
                    r = v
                if r >= x:
                    break
        return r

    cdef int sweep_search(self, int side, int x) noexcept nogil:
        """Score classes: 1 if ``side`` (0 defence, 1 attack) can force taking every
        trick with a final T at or below x (the defence) / at or above x (the attack),
        else 0 -- an AND/OR search of the game where not sweeping loses (G_S). Only
        trick winners, the Petit's trick and the Excuse matter to a sweep, so the table
        key is the shape key (the live honours left out, as quasi-symmetry's) with what
        T reads besides: the attack's pile and bouts (a defence sweep changes them only
        through the Excuse) and, for an attack sweep, the live points it will take."""
        cdef Pos* p = &self.p
        cdef int i, j, k, v, r, mine, best = NOMOVE, nskip = 0, s, lo, hi
        cdef int boundary = p.ntrick == 0
        cdef uint64_t key = 0, check = 0, w
        cdef uint64_t shape[2]
        cdef uint64_t m[2]
        cdef int moves[32]
        cdef int skip_lo[32]
        cdef int skip_top[32]
        cdef TTEntry* e
        cdef int64_t n0 = self.nodes
        if self.check_limits():
            return 0
        self.nodes += 1
        if is_over(p):
            return sweep_final(p, side, x)
        self.tstat[p.trick_no][0] += 1
        if boundary:
            if not sweep_hope(p, side, x):
                self.tstat[p.trick_no][2] += 1
                return 0
            # the bounds of T: an end beyond x on the side's side that no end it does
            # not sweep reaches (past sweep_rest) is a sweep, so bounds that force T
            # there prove the sweep; bounds that keep T from x refute it
            value_bounds(p, &lo, &hi)
            if side == 0:
                if lo > x:
                    return 0
                if hi <= x and x < sweep_rest(p, 0, 0, 0):
                    return 1
            else:
                if hi < x:
                    return 0
                if lo >= x and x > sweep_rest(p, 1, 0, 0):
                    return 1
            self.tt_key(&check, shape)
            # every word T reads besides the shape, packed without overlap
            w = <uint64_t>side | (<uint64_t>p.tally.att_bouts << 1) \
                | (<uint64_t>p.tally.att_pts << 3) \
                | (<uint64_t>(p.live_pts if side else 0) << 13) \
                | (<uint64_t>(x + 32768) << 23)
            key = mix64(shape[0] ^ (w * <uint64_t>0x9E3779B97F4A7C15) ^ SWSALT)
            check = mix64b(shape[1] + w + SWSALT)
            self.tt_probes += 1
            e = self.tt_find(key, check)
            if e != NULL:
                self.tt_hits += 1
                self.tstat[p.trick_no][3] += 1
                return e.lb
        elif p.wi >= 0 and p.side[(p.tally.leader + p.wi) % p.n] != side \
                and p.trick_no < p.total_tricks - 1:
            # the other side is winning this trick: lost unless a seat of ``side``
            # still to play to it holds a card that could beat the winner (a higher
            # card of its suit, or a trump over a plain card); not on the last trick,
            # which the side's Excuse takes (TAROT-EXC-6)
            s = p.cur
            for i in range(p.n - p.ntrick):
                if p.side[s] == side and (
                        (p.hand[s][card_word(p.wc)] & ABOVE[p.wc])
                        or (p.wc >= 22 and (p.hand[s][0] & TRUMPS))):
                    break
                s = s + 1 if s + 1 < p.n else 0
            else:
                return 0
        legal_mask(p, m)
        k = self.order_moves(m, moves, skip_lo, skip_top, &nskip)
        mine = p.side[p.cur] == side
        if p.wc >= 0 and self.use_sweep_low and (not mine or self.sweep_one_seat):
            # (the proving side too when it is one seat: which of its seats wins a
            # trick is then no question)
            k = sweep_lowest(p, m[1], moves, k)
        r = 0 if mine else 1
        for i in range(k):
            play_card(p, moves[i])
            v = self.sweep_search(side, x)
            undo_card(p)
            if self.aborted:
                return 0
            if v == mine:
                # an OR node's success or an AND node's refutation: a cut
                r = v
                best = moves[i]
                if i == 0:
                    self.cut_first += 1
                else:
                    self.cut_later += 1
                break
        if best == NOMOVE:
            self.no_cut += 1
        if boundary:
            # an exact answer for this threshold: both bounds
            e = self.tt_slot(key, check, self.effort_rank(n0), &j)
            e.lb = r
            e.ub = r
            e.hon = 0
        return r

    cdef inline TTEntry* tt_bucket(self, uint64_t key) noexcept nogil:
        # the plain table's bucket of a key: tt_ways entries from a multiple of tt_ways
        return &self.tt[(key & self.tt_mask) & ~(<uint64_t>(self.tt_ways - 1))]

    cdef inline TTEntry* tt_find(self, uint64_t key, uint64_t check) noexcept nogil:
        # the live plain-table entry of key and its check word, or NULL
        cdef TTEntry* e = self.tt_bucket(key)
        cdef int i
        for i in range(self.tt_ways):
            if e[i].gen == self.tt_gen and e[i].key == key and e[i].check == check:
                return &e[i]
        return NULL

    cdef TTEntry* tt_slot(self, uint64_t key, uint64_t check, int rank,
                          int* fresh) noexcept nogil:
        """The plain-table entry of key: its own if stored (``fresh`` 0; its rank
        raised to ``rank`` if lower), else a new one in its bucket with empty bounds
        (``fresh`` 1), in place of a dead entry or of the one of least rank. ``rank``:
        effort_rank (``tt_effort``: ranked by the nodes the bounds cost); -1: the
        cards left, slot 0 keeping the deeper entry, slot 1 always replaced."""
        cdef TTEntry* s = self.tt_find(key, check)
        cdef int depth = rank if rank >= 0 else \
            (self.p.total_tricks - self.p.trick_no) * self.p.n - self.p.ntrick
        if s != NULL:
            fresh[0] = 0
            if depth > s.depth:
                s.depth = depth
            return s
        cdef TTEntry* e = self.tt_bucket(key)
        cdef int i
        fresh[0] = 1
        if self.use_effort:
            # a dead entry, else the one whose bounds cost the fewest nodes
            s = &e[0]
            for i in range(self.tt_ways):
                if e[i].gen != self.tt_gen:
                    s = &e[i]
                    break
                if e[i].depth < s.depth:
                    s = &e[i]
        elif e[0].gen != self.tt_gen or e[0].depth <= depth:
            # (before tt_effort) slot 0 keeps the deeper entry, slot 1 always replaced
            if e[0].gen == self.tt_gen:
                e[1] = e[0]
            s = &e[0]
        else:
            s = &e[1]
        s.key = key
        s.check = check
        s.lb = LO_INF
        s.ub = HI_INF
        s.lb_p = 0
        s.ub_p = 30000
        s.gen = self.tt_gen
        s.depth = depth
        s.best = NOMOVE
        s.hon = 0
        return s

    cdef void tt_store(self, uint64_t key, uint64_t check, int x, int v,
                       int best, int hon, int rank) noexcept nogil:
        """Add the bound r vs x to the entry of key (an exact entry: hon = -1), or to
        a shape entry (hon: the position's live honours): one representative a shape,
        the latest one stored (its bounds start afresh when the honours differ).
        ``rank``: the entry's replacement rank (effort_rank; -1: by cards left)."""
        cdef int fresh
        cdef TTEntry* s = self.tt_slot(key, check, rank, &fresh)
        if fresh:
            s.hon = hon if hon >= 0 else 0
        elif hon >= 0 and s.hon != hon:
            s.hon = hon
            s.lb = LO_INF
            s.ub = HI_INF
            s.lb_p = 0
            s.ub_p = 30000
        cdef int p0, off
        store_offsets(&self.p, &p0, &off)
        v -= off
        x -= off
        cdef int lb = s.lb, lb_p = s.lb_p, ub = s.ub, ub_p = s.ub_p
        add_bound(x, v, p0, &lb, &lb_p, &ub, &ub_p)
        s.lb = lb
        s.lb_p = lb_p
        s.ub = ub
        s.ub_p = ub_p
        if best != NOMOVE:
            s.best = best


def pext(uint64_t x, uint64_t m, bint software=False):
    """Parallel bit extract (hardware BMI2 when available); exposed for tests."""
    return atout_pext_sw(x, m) if software else atout_pext(x, m)


def _popcount(mask):
    return bin(mask).count("1")


def trick_winner(cards):
    """Index of the winning card of a (partial) trick by TAROT-PLAY-6 / TAROT-EXC-2,
    -1 if only EX was played (EXC-6 needs the deal's history: see TarotCore)."""
    cdef int buf[5]
    cdef int k = len(cards)
    if k < 1 or k > 5:
        raise ValueError("a trick has 1 to 5 cards")
    for i in range(k):
        if not 0 <= cards[i] < NCARDS:
            raise ValueError("card out of range")
        buf[i] = cards[i]
    return winner_index(buf, k)


def card_points2(int card):
    """Doubled value of a card (TAROT-DECK-4)."""
    if not 0 <= card < NCARDS:
        raise ValueError("card out of range")
    return PTS[card]


def mask_points2(mask):
    """Doubled value of a card set given as a 78-bit deck mask."""
    return mask_points(<uint64_t>(mask & 0x3FFFFF), <uint64_t>(mask >> 22))


def random_deal_playouts(int n, long count, uint64_t seed, int mult=2, bint dog_to_attack=True):
    """Benchmark loop run entirely in C: deal `count` random deals for n players
    (seeded), seat 0 takes (5p: the holder of KH is the partner), the dog goes to the
    attack (as an écart) or not, and every deal is played out at random. Returns the
    sum of the final T."""
    cdef Pos p
    cdef uint64_t rng = seed * <uint64_t>0x9E3779B97F4A7C15 + 1
    cdef int deck[78]
    cdef int i, j, t, hs, s, partner
    cdef long d
    cdef int64_t total = 0
    cdef int KH = 22 + 14 * 1 + 13
    if n < 3 or n > 5:
        raise ValueError("players must be 3, 4 or 5")
    hs = 24 if n == 3 else (18 if n == 4 else 15)
    with nogil:
        for d in range(count):
            memset(&p, 0, sizeof(Pos))
            for i in range(78):
                deck[i] = i
            for i in range(77, 0, -1):
                j = <int>(xorshift(&rng) % <uint64_t>(i + 1))
                t = deck[i]
                deck[i] = deck[j]
                deck[j] = t
            p.n = n
            p.total_tricks = hs
            p.tally.petit_trick = -1
            p.base = 25
            p.mult = mult
            p.pb_mult = mult
            partner = -1
            for s in range(n):
                for i in range(hs):
                    t = deck[s * hs + i]
                    if t < 22:
                        p.hand[s][0] |= <uint64_t>1 << t
                        p.live[0] |= <uint64_t>1 << t
                    else:
                        p.hand[s][1] |= <uint64_t>1 << (t - 22)
                        p.live[1] |= <uint64_t>1 << (t - 22)
                    if t == KH:
                        partner = s
            p.side[0] = 1
            if n == 5 and partner > 0:
                p.side[partner] = 1
            for s in range(n):
                p.side_live[p.side[s]][0] |= p.hand[s][0]
                p.side_live[p.side[s]][1] |= p.hand[s][1]
            p.live_pts = mask_points(p.live[0], p.live[1])
            if dog_to_attack:
                for i in range(n * hs, 78):
                    p.tally.att_pts += PTS[deck[i]]
                    p.tally.att_bouts += IS_BOUT[deck[i]]
            p.tally.leader = 1 % n
            p.cur = p.tally.leader
            p.led = -1
            p.wt = -1
            p.wi = -1
            p.wc = -1
            total += playout(&p, &rng)
    return total

