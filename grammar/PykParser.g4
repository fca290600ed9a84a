// PykParser: the syntax of a .pyk file, which is the whole syntax of Python 3
// (up to 3.12: also `match`, `except*`, `type` aliases and type parameters).
//
// The parser accepts every Python 3 construct so that the frontend can reject
// what pyk does not support with a precise "X is not supported" error instead
// of a syntax error. It is deliberately a little more permissive than Python in
// a few places (listed at the rules: parameter order, assignment targets,
// mixed dict/set entries); the AST builder checks those.
//
// Shape rules, so that the AST builder can tell constructs apart:
//  - Precedence is one rule per level, from `test` (lowest) to `atom`. Binary
//    operators of one level are a flat list (`arithExpr : term (('+'|'-') term)*`):
//    the builder folds them left to right; the operators are in `ops`.
//    No rule match is ambiguous about precedence, and the parse tree of a long
//    chain such as `a + b + ... + z` stays shallow.
//  - A list with a separator distinguishes "one element" from "a tuple" by its
//    commas: `x` versus `x,` (check COMMA().size()).
//  - Alternatives that build different nodes carry `#labels`.
//  - Decisions look one or two tokens ahead, except at a few that Python's
//    syntax makes longer: `match` statement versus expression statement (up
//    to the colon), parenthesised `with` items, dots of a relative import.
//
// Not for: Python 2 syntax (print statements, backticks, `<>`).

parser grammar PykParser;

options { tokenVocab = PykLexer; }

// ===================================================================== Entry

/// A whole file.
fileInput : (NEWLINE | stmt)* EOF;

/// The same file read one top-level statement at a time: the parser calls
/// this until it matches EOF, so that each statement's parse tree can be
/// freed once its AST is built (frontend/Parser.cpp).
fileItem : NEWLINE* (stmt | EOF);

/// One expression (or tuple) alone, e.g. a signature string
/// "void(float32[:], float32[:])" re-parsed from a decorator argument.
/// Leading spaces in the string give an INDENT (and a DEDENT at its end),
/// which are accepted.
evalInput : INDENT? testlist NEWLINE* DEDENT? EOF;

// ================================================================ Statements

stmt : simpleStmts | compoundStmt;

/// Simple statements on one logical line, separated by `;`.
simpleStmts : simpleStmt (';' simpleStmt)* ';'? NEWLINE;

simpleStmt
    : typeAliasStmt
    | exprStmt
    | delStmt
    | passStmt
    | breakStmt
    | continueStmt
    | returnStmt
    | raiseStmt
    | yieldStmt
    | globalStmt
    | nonlocalStmt
    | assertStmt
    | importName
    | importFrom
    ;

/// An expression statement, or an assignment in one of three forms:
///  - annotated: `target: annotation [= annValue]` (`annotation` set);
///  - augmented: `target op= augValue` (`augOp` set);
///  - plain, possibly chained: `t1 = t2 = value`. Then every element but the
///    last of [testlistStarExpr, assignValue...] is a target and the last
///    assignValue is the value. No `=`: an expression statement.
/// Targets are not checked here (`f() = 1` parses; the builder rejects it).
exprStmt
    : testlistStarExpr
      ( ':' annotation=test ('=' annValue=assignValue)?
      | augOp=augAssignOp augValue=assignValue
      | ('=' assignValue)*
      )
    ;

assignValue : yieldExpr | testlistStarExpr;

/// Its token `op` is one of += -= *= @= /= //= %= **= <<= >>= &= ^= |=.
augAssignOp
    : op=( '+=' | '-=' | '*=' | '@=' | '/=' | '//=' | '%=' | '**='
         | '<<=' | '>>=' | '&=' | '^=' | '|=' )
    ;

delStmt : 'del' exprList;

passStmt : 'pass';

breakStmt : 'break';

continueStmt : 'continue';

returnStmt : 'return' testlistStarExpr?;

/// `raise`, `raise exc`, `raise exc from cause`.
raiseStmt : 'raise' (exc=test ('from' cause=test)?)?;

yieldStmt : yieldExpr;

globalStmt : 'global' NAME (',' NAME)*;

nonlocalStmt : 'nonlocal' NAME (',' NAME)*;

/// `assert condition[, message]`.
assertStmt : 'assert' condition=test (',' message=test)?;

/// `import a.b as c, d`.
importName : 'import' dottedAsName (',' dottedAsName)*;

dottedAsName : dottedName ('as' alias=NAME)?;

dottedName : NAME ('.' NAME)*;

/// `from .a.b import (x as y, z)`, `from . import x`, `from a import *`.
/// The relative level is the number of dots in `dots` ('...' counts three).
importFrom
    : 'from' ( dots+=('.' | '...')* moduleName=dottedName
             | dots+=('.' | '...')+
             )
      'import' ( star='*'
               | '(' importAsNames ','? ')'
               | importAsNames
               )
    ;

importAsNames : importAsName (',' importAsName)*;

importAsName : name=NAME ('as' alias=NAME)?;

/// `type Name[T] = value` (Python 3.12). `type` is a soft keyword.
typeAliasStmt
    : {_input->LT(1)->getText() == "type"}? NAME name=NAME typeParams? '=' value=test
    ;

// ======================================================= Compound statements

compoundStmt
    : ifStmt
    | whileStmt
    | forStmt
    | tryStmt
    | withStmt
    | definition
    | matchStmt
    ;

/// The body of a compound statement: simple statements on the same line after
/// the colon, or an indented block.
suite
    : simpleStmts                   #inlineSuite
    | NEWLINE INDENT stmt+ DEDENT   #blockSuite
    ;

ifStmt : 'if' condition=namedExprTest ':' body=suite elifClause* elseClause?;

elifClause : 'elif' condition=namedExprTest ':' body=suite;

/// The `else:` of if, while, for and try.
elseClause : 'else' ':' body=suite;

whileStmt : 'while' condition=namedExprTest ':' body=suite elseClause?;

/// `[async] for targets in iterable: ... [else: ...]`.
forStmt
    : ASYNC? 'for' targets=exprList 'in' iterable=testlistStarExpr ':' body=suite
      elseClause?
    ;

tryStmt
    : 'try' ':' body=suite
      ( exceptClause+ elseClause? finallyClause?
      | finallyClause
      )
    ;

/// `except`, `except E`, `except E as name`, `except* E` (`star` set).
/// A comma-separated type list (Python 3.14) is accepted as a tuple.
exceptClause
    : 'except' (star='*'? types=testlist ('as' name=NAME)?)? ':' body=suite
    ;

finallyClause : 'finally' ':' body=suite;

/// `[async] with a as b, c:` or the parenthesised form `with (a as b, c):`.
withStmt
    : ASYNC? 'with' ( '(' withItem (',' withItem)* ','? ')'
                    | withItem (',' withItem)*
                    ) ':' body=suite
    ;

withItem : contextExpr=test ('as' target=expr)?;

/// A function or class with its decorators.
definition : decorator* (funcDef | classDef);

/// `@` followed by any expression (Python 3.9), then a line end.
decorator : '@' namedExprTest NEWLINE;

/// `[async] def name[T](params) -> returnType: body`.
funcDef
    : ASYNC? 'def' name=NAME typeParams? '(' parameters? ')' ('->' returnType=test)?
      ':' body=suite
    ;

/// The parameter list as a flat sequence in source order. Python's ordering
/// rules (no non-default after default, at most one `*` and one `/`, `**kwargs`
/// last) are checked by the AST builder, not here.
parameters : parameter (',' parameter)* ','?;

parameter
    : name=NAME (':' annotation=test)? ('=' defaultValue=test)?   #namedParameter
    | '*' (name=NAME (':' annotation=starOrTest)?)?              #starParameter        // `*args`, or bare `*` when name is absent
    | '**' name=NAME (':' annotation=test)?                      #doubleStarParameter
    | '/'                                                        #slashParameter
    ;

/// `class Name[T](bases, metaclass=M): body`.
classDef
    : 'class' name=NAME typeParams? ('(' arglist? ')')? ':' body=suite
    ;

/// Type parameters of a generic function, class or alias (Python 3.12).
typeParams : '[' typeParam (',' typeParam)* ','? ']';

typeParam
    : name=NAME (':' bound=test)? ('=' defaultValue=test)?   #plainTypeParam
    | '*' name=NAME ('=' defaultValue=starOrTest)?           #typeVarTupleParam
    | '**' name=NAME ('=' defaultValue=test)?                #paramSpecParam
    ;

// =========================================================== Match statement
// Python 3.10. `match` and `case` are soft keywords: NAMEs checked by a
// predicate. pyk rejects match statements; the patterns are parsed so that the
// rejection is a clear error and not a syntax error.

matchStmt
    : {_input->LT(1)->getText() == "match"}? NAME subject=subjectExpr ':'
      NEWLINE INDENT caseBlock+ DEDENT
    ;

subjectExpr : starNamedExpr (',' starNamedExpr)* ','?;

caseBlock
    : {_input->LT(1)->getText() == "case"}? NAME patterns ('if' guard=namedExprTest)?
      ':' body=suite
    ;

/// A pattern, or an open sequence pattern `a, *rest`.
patterns : pattern (',' pattern)* ','?;

pattern : orPattern ('as' name=NAME)?;

orPattern : closedPattern ('|' closedPattern)*;

closedPattern
    : literalPattern                                         #literalClosedPattern
    | dottedName ('(' patternArguments? ')')?                #namePattern  // capture `x`, wildcard `_`, value `a.b`; a class pattern with `(`
    | '(' patterns? ')'                                      #groupOrTuplePattern
    | '[' patterns? ']'                                      #listPattern
    | '{' (mappingEntry (',' mappingEntry)* ','?)? '}'       #mappingPattern
    | '*' name=NAME                                          #starPattern
    ;

literalPattern
    : '-'? number ( ('+' | '-') number )?
    | STRING+
    | 'None'
    | 'True'
    | 'False'
    ;

patternArguments : patternArgument (',' patternArgument)* ','?;

patternArgument : (keyword=NAME '=')? pattern;

mappingEntry
    : (literalPattern | dottedName) ':' pattern
    | '**' name=NAME
    ;

// =============================================================== Expressions
// From the lowest precedence to the highest.

/// `target := value` (walrus, `target` set) or a plain test.
namedExprTest : (target=NAME ':=')? test;

/// `body if condition else orelse`, a lambda, or (no `if`) just `body`.
test
    : body=orTest ('if' condition=orTest 'else' orelse=test)?   #conditionalTest
    | lambdef                                                   #lambdaTest
    ;

lambdef : 'lambda' lambdaParameters? ':' body=test;

/// Like `parameters`, without annotations.
lambdaParameters : lambdaParameter (',' lambdaParameter)* ','?;

lambdaParameter
    : name=NAME ('=' defaultValue=test)?   #namedLambdaParameter
    | '*' name=NAME?                       #starLambdaParameter
    | '**' name=NAME                       #doubleStarLambdaParameter
    | '/'                                  #slashLambdaParameter
    ;

/// `a or b or c`: one node with all operands.
orTest : andTest ('or' andTest)*;

/// `a and b and c`: one node with all operands.
andTest : notTest ('and' notTest)*;

notTest
    : 'not' operand=notTest    #notExpr
    | comparison               #comparisonNotTest
    ;

/// `0 <= i < n`: a chain of operands and operators, as Python's Compare.
comparison : expr (compOp expr)*;

compOp
    : '<'         #ltOp
    | '>'         #gtOp
    | '=='        #eqOp
    | '>='        #geOp
    | '<='        #leOp
    | '!='        #neOp
    | 'in'        #inOp
    | 'not' 'in'  #notInOp
    | 'is'        #isOp
    | 'is' 'not'  #isNotOp
    ;

/// `*x` in a target, a call, a display or a tuple.
starExpr : '*' expr;

// Binary operators, left associative: fold `ops[i]` with operand i+1.
expr : xorExpr (ops+='|' xorExpr)*;

xorExpr : andExpr (ops+='^' andExpr)*;

andExpr : shiftExpr (ops+='&' shiftExpr)*;

shiftExpr : arithExpr (ops+=('<<' | '>>') arithExpr)*;

arithExpr : term (ops+=('+' | '-') term)*;

term : factor (ops+=('*' | '@' | '/' | '//' | '%') factor)*;

/// Unary operators bind looser than `**` on their right: `-x ** 2` is
/// `-(x ** 2)`, while `2 ** -1` works because the exponent is a factor.
factor
    : '+' operand=factor    #unaryPlus
    | '-' operand=factor    #unaryMinus
    | '~' operand=factor    #unaryInvert
    | power                 #powerFactor
    ;

/// `base ** exponent`, right associative through `factor`.
power : base=awaitPrimary ('**' exponent=factor)?;

/// `await x` binds tighter than `**`.
awaitPrimary : AWAIT? primary;

/// An atom followed by calls, subscripts and attribute accesses, applied
/// left to right.
primary : atom trailer*;

trailer
    : '(' arglist? ')'          #callTrailer
    | '[' subscriptList ']'     #subscriptTrailer
    | '.' name=NAME             #attributeTrailer
    ;

atom
    : '(' yieldExpr ')'                               #parenYieldAtom
    | '(' testlistComp? ')'                           #parenAtom       // `()`, `(x)`, `(x,)`, `(x for ...)`
    | '[' testlistComp? ']'                           #listAtom        // `[]`, `[x, y]`, `[x for ...]`
    | '{' dictOrSetMaker? '}'                         #dictOrSetAtom   // `{}` is an empty dict
    | NAME                                            #nameAtom
    | number                                          #numberAtom
    | STRING+                                         #stringAtom      // adjacent strings concatenate
    | '...'                                           #ellipsisAtom
    | 'None'                                          #noneAtom
    | 'True'                                          #trueAtom
    | 'False'                                         #falseAtom
    ;

/// INTEGER (decimal, 0x, 0o, 0b, with `_`), FLOAT_NUMBER or IMAG_NUMBER.
number : INTEGER | FLOAT_NUMBER | IMAG_NUMBER;

/// Inside `(...)` and `[...]`: elements (a tuple/list when there is a comma,
/// or in brackets), or one element and a comprehension.
testlistComp
    : starNamedExpr ( comprehension
                    | (',' starNamedExpr)* ','?
                    )
    ;

starNamedExpr : starExpr | namedExprTest;

starOrTest : starExpr | test;

/// Inside `{...}`: dict entries (`k: v`, `**d`) or set elements, or one entry
/// and a comprehension. Mixing dict and set entries parses; the builder
/// rejects it.
dictOrSetMaker
    : dictOrSetEntry ( comprehension
                     | (',' dictOrSetEntry)* ','?
                     )
    ;

/// One entry of `{...}`: `key: value` (dict; `value` set), a set element
/// (`key` alone), `**mapping` (dict) or `*iterable` (set).
dictOrSetEntry
    : key=namedExprTest (':' value=test)?
    | '**' mapping=expr
    | starExpr
    ;

/// `for ... in ... [if ...] [for ...]...` as a flat list of clauses.
comprehension : compFor (compFor | compIf)*;

compFor : ASYNC? 'for' targets=exprList 'in' iterable=orTest;

compIf : 'if' condition=orTest;

/// Call arguments in source order; Python's ordering rules are checked by
/// the builder.
arglist : argument (',' argument)* ','?;

argument
    : name=NAME '=' value=test           #keywordArgument
    | '*' value=test                     #starArgument
    | '**' value=test                    #doubleStarArgument
    | value=namedExprTest comprehension? #positionalArgument   // with a comprehension: `f(x for x in y)`
    ;

/// `a[i]`, `a[i, j]` (a tuple index), `a[:, ::1]`. A subscript is `*x`; an
/// index `lower`; or a slice when `sliceTail` is present, from `lower` (if
/// set) to `sliceTail.upper` by `sliceTail.step`.
subscriptList : subscript (',' subscript)* ','?;

subscript
    : starExpr
    | lower=namedExprTest sliceTail?
    | sliceTail
    ;

/// The part of a slice from its first colon: `:upper:step`, each optional.
sliceTail : ':' upper=test? (':' step=test?)?;

/// Assignment, `for` and `del` targets (and any other expression list).
exprList : starOrExpr (',' starOrExpr)* ','?;

starOrExpr : starExpr | expr;

/// An expression or a tuple without parentheses.
testlist : test (',' test)* ','?;

/// Like testlist, with starred elements allowed (`x, *rest`).
testlistStarExpr : starOrTest (',' starOrTest)* ','?;

/// `yield`, `yield a, b`, `yield from x` (`fromValue` set).
yieldExpr : 'yield' ('from' fromValue=test | values=testlistStarExpr)?;
