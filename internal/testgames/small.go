package testgames

// Small games shared by the tests of several packages (api, the server, its
// workers and classifier, bench/stress): a one-player game of two buttons
// that is over once both are on.

// Buttons: the robot presses buttons a and b in either order; 100 when both
// are on. Its one non-trivial symmetry swaps the buttons.
const Buttons = `(role robot)
(button a)
(button b)
(<= (legal robot (press ?x)) (button ?x) (not (true (on ?x))))
(<= (next (on ?x)) (does robot (press ?x)))
(<= (next (on ?x)) (true (on ?x)))
(<= terminal (true (on a)) (true (on b)))
(<= (goal robot 100) (true (on a)) (true (on b)))
(<= (goal robot 0) (not (true (on a))))
(<= (goal robot 0) (true (on a)) (not (true (on b))))
`

// ButtonsRenamed is Buttons with every symbol renamed: the same game.
const ButtonsRenamed = `(role bot)
(switch x)
(switch y)
(<= (legal bot (push ?x)) (switch ?x) (not (true (lit ?x))))
(<= (next (lit ?x)) (does bot (push ?x)))
(<= (next (lit ?x)) (true (lit ?x)))
(<= terminal (true (lit x)) (true (lit y)))
(<= (goal bot 100) (true (lit x)) (true (lit y)))
(<= (goal bot 0) (not (true (lit x))))
(<= (goal bot 0) (true (lit x)) (not (true (lit y))))
`

// ButtonsOtherGoal is Buttons paying 50 instead of 100 at the end: a
// different game with the same graph shape.
const ButtonsOtherGoal = `(role robot)
(button a)
(button b)
(<= (legal robot (press ?x)) (button ?x) (not (true (on ?x))))
(<= (next (on ?x)) (does robot (press ?x)))
(<= (next (on ?x)) (true (on ?x)))
(<= terminal (true (on a)) (true (on b)))
(<= (goal robot 50) (true (on a)) (true (on b)))
(<= (goal robot 0) (not (true (on a))))
(<= (goal robot 0) (true (on a)) (not (true (on b))))
`
