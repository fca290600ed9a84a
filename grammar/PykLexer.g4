// PykLexer: the tokens of a .pyk file, which are Python 3's tokens.
//
// This grammar only says what the characters of each token are. Python's
// line structure (NEWLINE / INDENT / DEDENT, implicit line joining inside
// brackets, blank and comment-only lines) and every lexical error message are
// produced by the superclass PykLexerBase, which post-processes these tokens.
// The rules marked "error token" below never reach the parser under their own
// type: PykLexerBase reports them and then drops them or passes them on as the
// token they were meant to be, so that parsing continues.
//
// Not for: deciding what pyk supports. Every Python 3 token is lexed here; the
// frontend rejects what pyk does not support with its own message.

lexer grammar PykLexer;

options { superClass = PykLexerBase; }

// Made by PykLexerBase, never matched from characters.
tokens { INDENT, DEDENT }

@header {
#include "PykLexerBase.h"
}

// ---- Keywords (Python 3.7+ hard keywords; soft keywords such as `match`,
// `case`, `type` and `_` are NAMEs) ----
FALSE    : 'False';
NONE     : 'None';
TRUE     : 'True';
AND      : 'and';
AS       : 'as';
ASSERT   : 'assert';
ASYNC    : 'async';
AWAIT    : 'await';
BREAK    : 'break';
CLASS    : 'class';
CONTINUE : 'continue';
DEF      : 'def';
DEL      : 'del';
ELIF     : 'elif';
ELSE     : 'else';
EXCEPT   : 'except';
FINALLY  : 'finally';
FOR      : 'for';
FROM     : 'from';
GLOBAL   : 'global';
IF       : 'if';
IMPORT   : 'import';
IN       : 'in';
IS       : 'is';
LAMBDA   : 'lambda';
NONLOCAL : 'nonlocal';
NOT      : 'not';
OR       : 'or';
PASS     : 'pass';
RAISE    : 'raise';
RETURN   : 'return';
TRY      : 'try';
WHILE    : 'while';
WITH     : 'with';
YIELD    : 'yield';

// ---- Line structure ----
// One physical line end. PykLexerBase turns it into a logical NEWLINE, or
// moves it to the hidden channel (inside brackets, after a blank line).
NEWLINE : '\r'? '\n' | '\r';

// ---- Names and literals ----
// ASCII identifiers only: a non-ASCII letter is an ERRORCHAR.
NAME : [a-zA-Z_] [a-zA-Z0-9_]*;

// Decimal, hexadecimal, octal and binary integers, with `_` separators.
INTEGER
    : [1-9] ('_'? DIGIT)*
    | '0'+ ('_'? '0')*
    | '0' [xX] ('_'? HEX_DIGIT)+
    | '0' [oO] ('_'? [0-7])+
    | '0' [bB] ('_'? [01])+
    ;

// `1.`, `.5`, `1.5`, `1e-3`, `1.5E+3`.
FLOAT_NUMBER : POINT_FLOAT | EXPONENT_FLOAT;

// `1j`, `1.5j`, `1e3J`.
IMAG_NUMBER : (POINT_FLOAT | EXPONENT_FLOAT | DIGIT_PART) [jJ];

// Single, double and triple quoted strings with an optional prefix (r, b, u,
// f, rb, br, fr, rf in any case). The text keeps prefix and quotes; escapes are
// not decoded. Adjacent strings are separate tokens (the parser joins them).
STRING
    : STRING_PREFIX? ( '\'' SHORT_BODY_SQ '\''
                     | '"' SHORT_BODY_DQ '"'
                     | '\'\'\'' ('\\' . | ~'\\')*? '\'\'\''
                     | '"""' ('\\' . | ~'\\')*? '"""'
                     )
    ;

// ---- Operators and delimiters (Python's token names) ----
LPAR             : '(';
RPAR             : ')';
LSQB             : '[';
RSQB             : ']';
LBRACE           : '{';
RBRACE           : '}';
DOT              : '.';
ELLIPSIS         : '...';
COMMA            : ',';
COLON            : ':';
SEMI             : ';';
RARROW           : '->';
AT               : '@';
EQUAL            : '=';
COLONEQUAL       : ':=';
PLUS             : '+';
MINUS            : '-';
STAR             : '*';
DOUBLESTAR       : '**';
SLASH            : '/';
DOUBLESLASH      : '//';
PERCENT          : '%';
TILDE            : '~';
CIRCUMFLEX       : '^';
VBAR             : '|';
AMPER            : '&';
LEFTSHIFT        : '<<';
RIGHTSHIFT       : '>>';
LESS             : '<';
GREATER          : '>';
EQEQUAL          : '==';
NOTEQUAL         : '!=';
LESSEQUAL        : '<=';
GREATEREQUAL     : '>=';
PLUSEQUAL        : '+=';
MINEQUAL         : '-=';
STAREQUAL        : '*=';
SLASHEQUAL       : '/=';
DOUBLESLASHEQUAL : '//=';
PERCENTEQUAL     : '%=';
DOUBLESTAREQUAL  : '**=';
ATEQUAL          : '@=';
AMPEREQUAL       : '&=';
VBAREQUAL        : '|=';
CIRCUMFLEXEQUAL  : '^=';
LEFTSHIFTEQUAL   : '<<=';
RIGHTSHIFTEQUAL  : '>>=';

// ---- Hidden: spacing, comments, explicit line joining ----
WS           : [ \t\f]+ -> channel(HIDDEN);
COMMENT      : '#' ~[\r\n]* -> channel(HIDDEN);
LINE_JOINING : '\\' ('\r'? '\n' | '\r') -> channel(HIDDEN);

// ---- Error tokens (reported by PykLexerBase) ----
// A string whose closing quote is missing on its line; passed on as STRING.
UNTERMINATED_STRING
    : STRING_PREFIX? ('\'' SHORT_BODY_SQ | '"' SHORT_BODY_DQ) '\\'?
    ;

// A triple-quoted string that is never closed: its body cannot contain the
// closing quotes, so a closed string always makes the longer STRING match.
// Passed on as STRING.
UNTERMINATED_LONG_STRING
    : STRING_PREFIX? ( '\'\'\'' LONG_BODY_SQ ('\'' '\''?)?
                     | '"""' LONG_BODY_DQ ('"' '"'?)?
                     ) '\\'?
    ;

// `0123`: leading zeros (a float such as `0123.5` is the longer match).
// Passed on as INTEGER.
LEADING_ZERO_INTEGER : '0'+ [0-9]+ ('_'? DIGIT)*;

// A backslash that is not followed by a line end; dropped.
BAD_LINE_JOINING : '\\';

// Any other character; dropped. Must stay the last rule.
ERRORCHAR : .;

// ---- Fragments ----
fragment DIGIT          : [0-9];
fragment HEX_DIGIT      : [0-9a-fA-F];
fragment DIGIT_PART     : DIGIT ('_'? DIGIT)*;
fragment POINT_FLOAT    : DIGIT_PART? '.' DIGIT_PART | DIGIT_PART '.';
fragment EXPONENT_FLOAT : (DIGIT_PART | POINT_FLOAT) [eE] [+-]? DIGIT_PART;
fragment STRING_PREFIX
    : [rRbBuUfF]
    | [rR] [bBfF]
    | [bBfF] [rR]
    ;
// A backslash escapes any character, a line end included (CRLF as one).
fragment SHORT_BODY_SQ : (~[\\'\r\n] | '\\' ('\r\n' | .))*;
fragment SHORT_BODY_DQ : (~[\\"\r\n] | '\\' ('\r\n' | .))*;
// Triple-quoted bodies that never contain three closing quotes in a row.
fragment LONG_BODY_SQ
    : ( ~['\\] | '\\' . | '\'' (~['\\] | '\\' .) | '\'\'' (~['\\] | '\\' .) )*
    ;
fragment LONG_BODY_DQ
    : ( ~["\\] | '\\' . | '"' (~["\\] | '\\' .) | '""' (~["\\] | '\\' .) )*
    ;
