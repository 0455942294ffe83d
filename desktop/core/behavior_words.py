"""The words the specificity check reads a behavior with.

Plain data, kept apart from the rules so a coach's vocabulary can grow without
touching them. Verbs are in their base form (a behavior is an imperative); both
spellings where British and American differ, since coaches write both.
"""

from __future__ import annotations

# Verbs a coach can hear or see the manager do.
ACTION_VERBS = frozenset("""
    ask state confirm pause summarise summarize stop name repeat write open close check say read
    play let wait record log quote request restate paraphrase probe invite tell note share set
    agree replace listen start begin end finish use list point replay review call book send
    schedule follow mark look put add type compare bring answer explain show
    role-play roleplay rehearse practise practice keep limit cap spend pick choose select quit
    avoid skip drop cut hold have give walk go run join attend sit block reserve move update
    change edit fill enter capture highlight flag circle underline count time measure track
    tally score rate rank sort label tag reply respond return revisit recap clarify challenge
    question test verify validate double-check cross-check mention remind thank praise
    acknowledge present draw sketch map outline prepare plan reschedule cancel copy forward email
    text message meet shadow observe watch hear redirect hand pass turn switch leave allow offer
    suggest propose recommend require insist decline refuse accept approve reject sign decide
    print circulate post pin clip cite narrow split combine raise repeat-back interrupt
    talk speak introduce greet debrief wrap sum pull open-with close-with
    look-up find dig push press nudge invite-back write-down read-back play-back
    inspect explore recreate assign define calibrate do prep timebox time-box recap audit scan
    skim jot preview demo pitch unpack surface uncover identify ring phone visit resist refrain
""".split())

# Verbs that name a goal, a trait or a state of mind: nothing to hear in the next call.
# A behavior starting with one of these is surely not an action.
SURE_GOAL_VERBS = frozenset("""
    improve be become increase grow boost drive hit enhance strengthen optimise optimize
    master leverage embrace foster empower understand think know feel care learn
    own sell work focus try get coach develop excel elevate aim strive exceed achieve deliver
""".split())

# Goal verbs that are actions in some turns of phrase: "work through the recording",
# "focus the review on three deals", "try the question in your next call".
GOAL_VERBS_AS_ACTIONS = {"work": ("through", "out"), "focus": ("the", "each", "every", "your"),
                         "try": ("the", "this", "that", "one", "a", "out")}

# Verbs that are often aims ("ensure alignment") but sometimes concrete ("ensure every
# commit deal has a dated next step in Salesforce"): a warning unless the rest is abstract.
SOFT_GOAL_VERBS = frozenset("""
    make ensure encourage support manage handle consider remember maintain create build adopt
    need should must establish promote instil instill cultivate inspire motivate enable
    facilitate align help engage demonstrate prioritise prioritize
""".split())

# Words that tell a verb from a noun when the verb is one the check does not know:
# "Timebox the demo", "Double-book each rep" (a determiner, a pronoun, a number, a particle).
VERB_FOLLOWERS = frozenset("""
    the a an each every one two three four five ten your their his her its our them him it
    this that these those all any some no up down out back through over off in on with to
    for about at by from into onto every first last next own
""".split())

# Determiners: after "and", an unknown word followed by one is a verb ("and rebuild the plan").
DETERMINERS = frozenset("the a an each every your their his her this that these those".split())

# Nouns that make a "raise ..." or "lift ..." an aim: the team's close rate, the number.
METRIC_NOUNS = frozenset("""
    rate rates accuracy quota revenue number numbers performance results conversion attainment
    productivity bar standard standards game morale level levels activity activities volume
    output coverage velocity
""".split())

# Words that point back to the first action: "pause ... and let them answer".
BACK_REFERENCES = frozenset("""
    it them they their theirs him her his its that this there the-rest rest answer reply
    count tally score result results list summary findings
""".split())

# Words of one topic: two actions about the same thing are one behavior in two steps.
TOPIC_GROUPS = (
    frozenset("call calls recording recordings clip clips moment moments line lines quote quotes "
              "words silence pause transcript minute minutes second seconds playback".split()),
    frozenset("crm salesforce hubspot field fields history change changes opportunity "
              "opportunities record records note notes stage".split()),
    frozenset("question questions answer answers objection objections concern concerns".split()),
    frozenset("next step steps date dates meeting calendar".split()),
)

# Idioms that name an aim, whatever verb they start with: nothing to hear in the next call.
VAGUE_PHRASES = (
    "keep an eye", "step up", "buy in", "buy-in", "pay attention", "raise the bar",
    "lead by example", "set the tone", "extra mile", "take ownership", "on top of", "up your game",
    "level up", "show up", "be there for", "make time", "open door", "open-door", "walk the talk",
    "set expectations", "clear expectations", "big picture", "best practice", "best practices",
    "follow through", "follow-through", "lead from the front",
)

# Words that say how, not what: "listen actively", "communicate clearly".
MANNER_WORDS = frozenset("""
    well properly often regularly consistently clearly actively effectively more better openly
    honestly carefully closely frequently constantly
""".split())

# Who does it, when a coach writes the behavior as a description ("The manager asks ...").
SUBJECTS = ("the manager will ", "manager will ", "you will ", "i will ", "we will ",
            "the manager ", "manager ", "you ", "i ", "we ")

# Verbs that name a conversation without saying what is said in it ("talk to the reps
# about their deals"): a warning, since the topic alone gives nothing to listen for.
TOPIC_VERBS = frozenset("talk discuss chat speak communicate connect converse".split())
