import { LiteralTrigger } from '../literal-trigger';

// GR7 cues. Bounded word gaps and a literal first word per alternative keep backtracking bounded
// (GR2).
export interface Cue {
  category: 'OVERRIDE' | 'ROLE_PLAY' | 'EXFILTRATION' | 'TOOL_OUTPUT' | 'ENCODED';
  regex: RegExp;
  score: number;
  /** GR28: lower-case beginnings of every match (empty: the cue runs over the whole text). */
  starts: string[];
}

const cue = (category: Cue['category'], source: string, score: number, starts: string): Cue => ({
  category,
  regex: new RegExp(source, 'gi'),
  score,
  starts: starts === '' ? [] : starts.split(' '),
});

const FILLER =
  '(?:\\s+(?:all|any|each|every|the|your|my|of|these|those|previous|prior|above|earlier|preceding|initial|original|system|existing|current|safety|developer|given|following|other|past|old))';
const RULES_NOUN =
  '(?:instructions?|prompts?|rules|directives?|guidelines|guardrails|constraints|restrictions|policies|programming|commands|orders|guidance|training)';
const AI =
  '(?:ai|assistant|llm|model|agent|chatbot|language\\s+model|claude|gpt|chatgpt|copilot|bot)';
const PERSONA =
  '(?:DAN|STAN|DUDE|AIM|unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|amoral|unethical|unlimited|unbound|developer\\s+mode|god\\s+mode|malicious|an?\\s+(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|amoral|unethical|malicious)|(?:a|an)\\s+ai\\s+(?:with(?:out)?|that\\s+has)\\s+no)';
const SECRET_OBJECT =
  '(?:system\\s+prompt|(?:initial|original|hidden|secret|internal|system|developer|above|previous|full|entire)\\s+(?:instructions|prompt|message|rules|configuration)|api\\s+keys?|secret\\s+keys?|credentials|passwords?|access\\s+tokens?|environment\\s+variables|env\\s+vars|\\.env\\s+file|private\\s+keys?)';
const DATA_OBJECT =
  '(?:conversation|chat|history|data|contents|files|credentials|secrets|keys|tokens|passwords|emails|messages|documents|database|records|memory|context|transcript|user\\s+data|personal\\s+data)';

export const CUES: Cue[] = [
  cue(
    'OVERRIDE',
    `\\b(?:ignore|disregard|forget|override|bypass|skip|abandon|neglect)${FILLER}{0,4}\\s+${RULES_NOUN}\\b`,
    0.9,
    'ignore disregard forget override bypass skip abandon neglect',
  ),
  cue(
    'OVERRIDE',
    "\\b(?:forget|disregard|ignore)\\s+(?:everything|all(?:\\s+that)?)\\s+(?:you(?:'ve|\\s+have|\\s+were)?\\s+(?:been\\s+)?(?:told|said|learned|given)|(?:above|before|previously|so\\s+far))",
    0.9,
    'forget disregard ignore',
  ),
  cue(
    'OVERRIDE',
    '\\b(?:new|updated|revised|real|actual|true|override)\\s+(?:system\\s+)?(?:instructions?|directives?|rules|prompt)\\s*:',
    0.75,
    'new updated revised real actual true override',
  ),
  cue(
    'OVERRIDE',
    '\\bfrom\\s+now\\s+on,?\\s+(?:you|your|the\\s+assistant)\\s+(?:will|are|must|should|shall|answer|respond|reply|act|only)',
    0.7,
    'from',
  ),
  cue(
    'OVERRIDE',
    `\\byou\\s+(?:are|will\\s+be)\\s+no\\s+longer\\s+(?:an?\\s+)?(?:bound|restricted|limited|following|required|${AI})`,
    0.85,
    'you',
  ),
  cue(
    'OVERRIDE',
    "\\b(?:do\\s+not|don't|stop)\\s+follow(?:ing)?\\s+(?:your|the|any)\\s+(?:previous\\s+|original\\s+|system\\s+|initial\\s+)?(?:instructions|rules|guidelines|programming)",
    0.85,
    'do stop',
  ),
  cue(
    'OVERRIDE',
    '\\b(?:override|disable|turn\\s+off|deactivate|bypass)\\s+(?:your\\s+|the\\s+|all\\s+)?(?:safety|security|content|moderation|ethical)\\s+(?:filters?|protocols?|settings|policy|policies|guidelines|checks|guardrails)',
    0.85,
    'override disable turn deactivate bypass',
  ),
  cue(
    'OVERRIDE',
    '<\\|im_start\\|>\\s*system|<\\|system\\|>|\\[\\/?INST\\]|<<\\/?SYS>>|<\\/?system>|<\\|endoftext\\|>|<\\|im_end\\|>',
    0.8,
    '<| [inst [/inst << <system </system',
  ),
  cue(
    'OVERRIDE',
    '(?:^|\\n)[ \\t]{0,4}(?:#{1,4}[ \\t]{0,2})?(?:system|admin|developer)[ \\t]{0,2}(?:prompt|message|override|instructions?|note)?[ \\t]{0,2}:[ \\t]{0,2}(?:you|ignore|the\\s+assistant|new)',
    0.7,
    '',
  ),
  cue(
    'ROLE_PLAY',
    `\\b(?:you\\s+are\\s+now|you're\\s+now|from\\s+now\\s+on\\s+you\\s+are|act\\s+as|acting\\s+as|pretend\\s+(?:to\\s+be|you\\s+are|you're)|role-?play\\s+as|behave\\s+(?:like|as)|simulate|imagine\\s+you\\s+are|become)\\s+(?:an?\\s+|the\\s+|my\\s+)?${PERSONA}\\b`,
    0.9,
    'you act pretend role behave simulate imagine become from',
  ),
  cue(
    'ROLE_PLAY',
    '\\b(?:DAN|developer|god|jailbreak|sudo|unrestricted)\\s+mode\\b|\\bdo\\s+anything\\s+now\\b|\\bjailbr(?:eak|oken)\\b',
    0.8,
    'dan developer god jailbr sudo unrestricted do',
  ),
  cue(
    'ROLE_PLAY',
    '\\b(?:without|free\\s+(?:from|of)|no\\s+longer\\s+(?:bound|restricted)\\s+by|not\\s+bound\\s+by)\\s+(?:any\\s+)?(?:ethical|moral|safety|content|openai|anthropic)\\s+(?:guidelines|restrictions|constraints|filters|limits|considerations|rules|policies)',
    0.7,
    'without free no',
  ),
  cue(
    'ROLE_PLAY',
    '\\bpretend\\s+(?:that\\s+)?(?:you\\s+)?(?:have|had|there\\s+are)\\s+no\\s+(?:rules|restrictions|limits|guidelines|filters|guardrails)',
    0.85,
    'pretend',
  ),
  cue(
    'ROLE_PLAY',
    '\\b(?:hypothetically|in\\s+a\\s+fictional\\s+world|for\\s+a\\s+story),?\\s+(?:if\\s+)?you\\s+(?:had|have|were)\\s+no\\s+(?:rules|restrictions|filters|limits)',
    0.75,
    'hypothetically in for',
  ),
  cue(
    'EXFILTRATION',
    `\\b(?:reveal|print|show|output|repeat|leak|display|dump|expose|disclose|give|tell|send|write\\s+out|spell\\s+out|recite|list)\\s+(?:me\\s+|us\\s+)?(?:all\\s+|back\\s+)?(?:of\\s+)?(?:your|the|any|its|all)\\s+(?:(?:full|entire|complete|exact|verbatim|stored|saved|current)\\s+){0,2}${SECRET_OBJECT}`,
    0.8,
    'reveal print show output repeat leak display dump expose disclose give tell send write spell recite list',
  ),
  cue(
    'EXFILTRATION',
    '\\bwhat\\s+(?:is|are|was|were)\\s+(?:your|the)\\s+(?:system\\s+prompt|(?:initial|original|hidden|secret|internal)\\s+(?:instructions|prompt))',
    0.75,
    'what',
  ),
  cue(
    'EXFILTRATION',
    `\\b(?:send|post|forward|upload|exfiltrate|transmit|email|leak|copy|append)\\s+(?:(?:all|the|this|every|any|our|your|my|of|entire|whole|full)\\s+){0,3}(?:[\\w-]{1,20}\\s+){0,2}${DATA_OBJECT}\\b[^\\n.]{0,40}?\\b(?:to|into|at)\\s+(?:https?:\\/\\/|ftp:\\/\\/|[\\w.+-]{1,64}@[\\w-]{1,63}\\.|(?:this|the\\s+following|my|an?\\s+external|the\\s+attacker'?s?)\\s+(?:url|endpoint|server|webhook|address|email))`,
    0.75,
    'send post forward upload exfiltrate transmit email leak copy append',
  ),
  cue(
    'EXFILTRATION',
    '!\\[[^\\]\\n]{0,100}\\]\\(https?:\\/\\/[^)\\s]{1,300}[?&][\\w-]{1,40}=(?:\\{|\\$|%7B|<|\\[)',
    0.85,
    '![',
  ),
  cue(
    'TOOL_OUTPUT',
    '<\\s{0,2}(?:important|system|instructions?|admin|secret|hidden)\\s{0,2}>',
    0.75,
    '<',
  ),
  cue(
    'TOOL_OUTPUT',
    `\\b(?:note|message|instructions?|attention|important|reminder)\\s+(?:to|for)\\s+(?:the\\s+|any\\s+|all\\s+)?${AI}s?\\b`,
    0.8,
    'note message instruction attention important reminder',
  ),
  cue(
    'TOOL_OUTPUT',
    `\\b${AI}s?\\s+(?:reading|processing|summari[sz]ing|parsing)\\s+this\\b`,
    0.8,
    'ai assistant llm model agent chat language claude gpt copilot bot',
  ),
  cue(
    'TOOL_OUTPUT',
    "\\b(?:do\\s+not|don't|never)\\s+(?:tell|inform|mention(?:\\s+this)?\\s+to|reveal\\s+this\\s+to|notify|alert|let)\\s+(?:the\\s+)?(?:user|human|customer|operator)s?\\b",
    0.8,
    'do never',
  ),
  cue(
    'TOOL_OUTPUT',
    '\\bwithout\\s+(?:telling|informing|notifying|alerting|asking|the\\s+knowledge\\s+of)\\s+(?:the\\s+)?(?:user|human|customer|operator)s?\\b',
    0.8,
    'without',
  ),
  cue(
    'TOOL_OUTPUT',
    `\\b(?:when|if|once)\\s+(?:the\\s+|an?\\s+)?${AI}\\s+(?:reads|sees|processes|summari[sz]es|receives|encounters)`,
    0.75,
    'when if once',
  ),
  cue(
    'TOOL_OUTPUT',
    '\\b(?:instead|first|before\\s+(?:answering|responding|replying|continuing)),?\\s+(?:you\\s+must\\s+|you\\s+should\\s+|please\\s+)?(?:call|invoke|use|run|execute)\\s+(?:the\\s+)?[\\w.-]{1,64}\\s+(?:tool|function)\\b',
    0.7,
    'instead first before',
  ),
  cue(
    'TOOL_OUTPUT',
    `\\bimportant\\s*[:!]\\s*(?:the\\s+)?(?:${AI}|you)\\s+(?:must|should|need\\s+to|are\\s+required\\s+to|will)\\b`,
    0.65,
    'important',
  ),
  cue(
    'ENCODED',
    '\\b(?:decode|base64[- ]?decode|rot13|unhex|deobfuscate|reverse)\\b[^.\\n]{0,60}?\\b(?:and|then)\\s+(?:follow|execute|run|obey|do|perform|apply|act\\s+on)\\b',
    0.75,
    'decode base64 rot13 unhex deobfuscate reverse',
  ),
];

/** GR28: one scan for the beginnings of every cue. */
export const CUE_STARTS = new LiteralTrigger(CUES.map((c) => c.starts));
