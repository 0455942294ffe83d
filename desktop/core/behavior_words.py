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
    mute unmute dial hang greet swap prompt stay sit remain stand step hire train onboard pair
    escalate loop cc host chair moderate steer frame reframe rephrase reword spell bold paste
    narrate describe detail break chunk group batch queue order grade tick cross strike delete
    remove archive reopen insert attach link contact reach ping draft rewrite revise correct fix
    adjust tweak reset restart resume linger nod glance study research investigate examine
    analyse analyze assess evaluate judge determine estimate calculate total plot chart graph
    whiteboard document transcribe annotate comment bookmark timestamp trim save file upload
    export sync refresh populate complete submit distribute publish announce declare volunteer
    nominate appoint allocate dedicate devote postpone delay defer advance shift drag lower
    reduce decrease shorten lengthen extend restrict bound kick launch initiate conclude rewind
    redo retry drill simulate model mirror echo compliment celebrate recognise recognize reward
    credit reference refer relate contrast benchmark trace monitor clock weigh quiz query demand
    dispute contest disagree secure obtain collect gather fetch grab take carry provide supply
    react elaborate justify defend argue negotiate concede trade exchange substitute alter
    modify vary rotate alternate clean tidy sort hang-up interview separate rerun replay
    repeat rehearse stress emphasise emphasize pre-wire prewire brief instruct teach 
    screen-share share-screen circle-back loop-in sum-up check-in join-in slow re-listen
    relisten re-read reread re-play lead
""".split())

# Verbs that name a goal, a trait or a state of mind: nothing to hear in the next call.
# A behavior starting with one of these is surely not an action.
SURE_GOAL_VERBS = frozenset("""
    improve be become increase grow boost drive hit enhance strengthen optimise optimize
    master leverage embrace foster empower understand think know feel care learn
    own sell work focus try get coach develop excel elevate aim strive exceed achieve deliver
    invest tighten sharpen streamline uplevel upgrade beef ramp
""".split())

# Goal verbs that are plain actions when something exact follows: "be the customer in a
# five-minute role-play", "deliver your feedback within 24 hours", "own the first five minutes".
GOAL_VERBS_WITH_DETAIL = frozenset("be own drive deliver work focus try coach develop learn think "
                                   "sharpen tighten".split())

# Goal verbs that are actions in some turns of phrase: "work through the recording",
# "focus the review on three deals", "try the question in your next call".
GOAL_VERBS_AS_ACTIONS = {"work": ("through", "out"), "coach": ("one", "this", "that"),
                         "think": ("aloud", "out"), "focus": ("the", "each", "every", "your"),
                         "try": ("the", "this", "that", "one", "a", "out")}

# Verbs that are often aims ("ensure alignment") but sometimes concrete ("ensure every
# commit deal has a dated next step in Salesforce"): a warning unless the rest is abstract.
SOFT_GOAL_VERBS = frozenset("""
    make ensure encourage support manage handle consider remember maintain create build adopt
    need should must establish promote instil instill cultivate inspire motivate enable
    facilitate align help engage demonstrate prioritise prioritize mentor nurture guide groom
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
    output coverage velocity churn size average win cycle slippage attrition retention margin
    arr acv bookings nps csat quality adoption
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
    frozenset("email emails message messages draft sentence sentences paragraph word words line "
              "lines recap summary follow-up".split()),
    frozenset("call calls recording recordings timestamp timestamps minute minutes clip clips "
              "moment moments".split()),
)

# Work apart from the conversation being coached: a second action on one of these
# ("..., then send the quarterly report to finance") is another behavior.
SEPARATE_WORK = frozenset("""
    report reports plan plans deck decks offsite licence licences license licenses territory
    territories commission commissions compensation headcount hire hiring recruiting interview
    interviews training trainings onboarding dashboard dashboards playbook handbook wiki template
    templates newsletter lunch lunches offsites okrs finance hr tooling engineer sdr sdrs
    kick-off kickoff all-hands quarterly mornings afternoons mondays tuesdays wednesdays
    thursdays fridays spreadsheet spreadsheets workshop workshops lms deck sko
""".split())

# Words that make a behavior a change of one's own stance, written as a negation:
# "Don't suggest a date; ask what the customer said" is one adjustment, not two behaviors.
NEGATIONS = frozenset("don't dont never stop quit avoid resist refrain no instead".split())

# After a verb, a word that carries on its action rather than naming a thing of its own.
PREPOSITIONS = frozenset("""
    to on at in for with about from into onto under until till during after before without by
    of around along across behind beside between toward towards upon within while when
    whenever once as like than
""".split())
PARTICLES = frozenset("up out down off over back away through".split())

# Verbs of a state of mind or a feeling: "start trusting the reps", "show the team you care".
STATE_VERBS = frozenset("""
    trust care believe value respect appreciate enjoy want like love hope wish feel know
    understand think worry fear doubt mind
""".split())

# Idioms that name an aim, whatever verb they start with: nothing to hear in the next call.
VAGUE_PHRASES = (
    "keep an eye", "step up", "buy in", "buy-in", "pay attention", "raise the bar",
    "lead by example", "set the tone", "extra mile", "take ownership", "on top of", "up your game",
    "level up", "show up", "be there for", "make time", "open door", "open-door", "walk the talk",
    "set expectations", "clear expectations", "big picture", "best practice", "best practices",
    "follow through", "follow-through", "lead from the front", "spend time", "find time",
    "take time", "spend more time", "the right", "quality time", "up for success", "lean in",
    "to their commitments", "to account", "get in front of", "stay ahead of",
    "on the same page", "have their back", "in the loop", "close the gap", "bridge the gap",
    "what matters", "what's important", "what counts",
)

# Words that say how, not what: "listen actively", "communicate clearly".
MANNER_WORDS = frozenset("""
    well properly often regularly consistently clearly actively effectively more better openly
    honestly carefully closely frequently constantly seriously proactively strategically
    diligently intentionally positively confidently assertively firmly calmly patiently
    respectfully professionally thoughtfully personally
""".split())

# Who does it, when a coach writes the behavior as a description ("The manager asks ...").
SUBJECTS = ("the manager will ", "manager will ", "you will ", "i will ", "we will ",
            "the manager ", "manager ", "mgr ", "you ", "i ", "we ")
# Modals a coach writes before the verb ("Needs to own the forecast", "should ask ...").
MODALS = ("needs to ", "need to ", "should ", "must ", "has to ", "have to ", "will ", "to ",
          "is going to ", "going to ", "can ", "could ", "continue to ", "keep on ", "start to ",
          "begin to ", "try to ", "remember to ", "make it a habit to ", "make a habit of ",
          "make a point of ", "make it a rule to ", "i'd like you to ", "i want you to ",
          "i would like you to ")

# Verbs that name a conversation without saying what is said in it ("talk to the reps
# about their deals"): a warning, since the topic alone gives nothing to listen for.
TOPIC_VERBS = frozenset("talk discuss chat speak communicate connect converse".split())
