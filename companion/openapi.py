"""The OpenAPI 3.1 description of ``/api``, written by hand and checked by
the tests against the app's routes and its real responses."""

from __future__ import annotations

from typing import Any

from companion import paper, plugins
from companion.lobby import CODE_ALPHABET, CODE_LENGTHS, NAME_MAX
from companion.referee import ACTION_MAX_CHARS

API_VERSION = "1.0.0"


def _error(description: str, with_table: bool = False) -> dict[str, Any]:
    schema = {"$ref": "#/components/schemas/ErrorWithTable" if with_table else "#/components/schemas/Error"}
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _ok(description: str, ref: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}}


CODE = {"name": "code", "in": "path", "required": True,
        "description": "The table's join code (case does not matter).",
        "schema": {"type": "string", "minLength": 1, "maxLength": 40}}

COMMON = {"400": _error("Malformed request: the sentence says what is wrong."),
          "413": _error("The body is too large."),
          "415": _error("The body is not JSON.")}

BEARER = [{"bearer": []}]


def _json_body(ref: str, required: bool = True) -> dict[str, Any]:
    return {"required": required,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}}


def spec(chosen_seeds: bool = False) -> dict[str, Any]:
    """The description of this server's API: ``chosen_seeds`` says whether
    it takes a table's ``seed`` (``ALLOW_CHOSEN_SEED``, tests and benchmarks);
    where it does not, the description has no ``seed``, as the server refuses one."""
    paths: dict[str, Any] = {
        "/api/openapi.json": {"get": {
            "summary": "This description", "operationId": "openapi",
            "responses": {"200": {"description": "OpenAPI 3.1",
                                  "content": {"application/json": {"schema": {"type": "object"}}}}}}},
        "/api/games": {"get": {
            "summary": "Games this companion can referee", "operationId": "listGames",
            "responses": {"200": _ok("The games", "GameList")}}},
        "/api/tables": {"post": {
            "summary": "Create a table", "operationId": "createTable",
            "description": "Returns the join code and the host's secret token. Rate-limited per client.",
            "requestBody": _json_body("CreateTable"),
            "responses": {"201": _ok("The new table, in its lobby", "Created"), **COMMON,
                          "403": _error("Refused: a request from another site."),
                          "422": {"description": "No such card set, or one that does not work with these rules.",
                                  "content": {"application/json": {"schema": {
                                      "$ref": "#/components/schemas/SetRefused"}}}},
                          "429": _error("Too many tables created from this address: wait.")}}},
        "/api/tables/{code}": {"get": {
            "summary": "The table as your seat sees it (a spectator without a token)",
            "operationId": "tableState", "parameters": [CODE], "security": [{}, {"bearer": []}],
            "responses": {"200": _ok("The table", "Table"), "404": _error("No such table.")}}},
        "/api/tables/{code}/version": {"get": {
            "summary": "The table's version alone, for cheap polling", "operationId": "tableVersion",
            "parameters": [CODE],
            "responses": {"200": _ok("The version", "Version"), "404": _error("No such table.")}}},
        "/api/tables/{code}/seats": {"post": {
            "summary": "Join a table with a name", "operationId": "join", "parameters": [CODE],
            "requestBody": _json_body("Join"),
            "responses": {"201": _ok("Your seat and its secret token", "Joined"), **COMMON,
                          "403": _error("Refused: a request from another site."),
                          "404": _error("No such table."),
                          "409": _error("The table is full, has started, or the name is taken."),
                          "429": _error("Too many joins from this address: wait.")}}},
        "/api/tables/{code}/seats/{seat}/token": {"post": {
            "summary": "A new token for a seat (host): its player moved to another device",
            "operationId": "newSeatToken", "security": BEARER,
            "requestBody": {"required": False, "description": "Nothing is read from it; if sent, it is JSON.",
                            "content": {"application/json": {"schema": {"type": "object"}}}},
            "parameters": [CODE, {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "description": "The seat's old token stops working.",
            "responses": {"200": _ok("The seat's new token", "SeatToken"), **COMMON,
                          "401": _error("No token."), "403": _error("Not the host's token."),
                          "404": _error("No such table."), "409": _error("No such seat.")}}},
        "/api/tables/{code}/bots": {"post": {
            "summary": "Seat a bot in the lobby (host)", "operationId": "addBot", "parameters": [CODE],
            "security": BEARER, "requestBody": _json_body("Bot"),
            "description": "On the next free seat; level easy, medium or hard (or random, greedy, planner).",
            "responses": {"201": _ok("The table with the bot seated", "Table"), **COMMON,
                          "401": _error("No token."), "403": _error("Not the host's token."),
                          "404": _error("No such table."),
                          "409": _error("Started already, the table is full, or the name is taken.", True)}}},
        "/api/tables/{code}/seats/{seat}/bot": {"post": {
            "summary": "Hand a seat to a bot mid-game (host)", "operationId": "handToBot", "security": BEARER,
            "parameters": [CODE, {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "requestBody": _json_body("Bot"),
            "description": "Its player left: the bot plays the seat, and the seat's old token stops working. "
                           "It goes back to a person with a new seat token.",
            "responses": {"200": _ok("The table", "Table"), **COMMON,
                          "401": _error("No token."), "403": _error("Not the host's token."),
                          "404": _error("No such table."),
                          "409": _error("Not started, over, no such seat, or that bot already.", True)}}},
        "/api/tables/{code}/start": {"post": {
            "summary": "Start the game (host)", "operationId": "start", "parameters": [CODE],
            "security": BEARER, "requestBody": _json_body("Versioned"),
            "responses": {"200": _ok("The table", "Table"), **COMMON,
                          "401": _error("No token."), "403": _error("Not the host's token."),
                          "404": _error("No such table."),
                          "409": _error("Started already, too few players, or the seats changed.", True)}}},
        "/api/tables/{code}/actions": {"post": {
            "summary": "Act for your seat", "operationId": "act", "parameters": [CODE],
            "security": BEARER, "requestBody": _json_body("Act"),
            "description": ("Send the version you saw. If the table moved on and your choices changed, "
                            "the answer is 409 with the table as it is now; if the rules forbid the action, "
                            "422 with the engine's sentence. Either way nothing changed."),
            "responses": {"200": _ok("The table after your action", "Table"), **COMMON,
                          "401": _error("No token."), "403": _error("This token has no seat here."),
                          "404": _error("No such table."),
                          "409": _error("Someone else moved first, or the game has not started.", True),
                          "422": _error("The rules do not allow this action now.", True)}}},
        "/api/tables/{code}/undo": {"post": {
            "summary": "Undo the last action (host)", "operationId": "undo", "parameters": [CODE],
            "security": BEARER, "requestBody": _json_body("Versioned"),
            "description": "Dice already seen come out the same when the same path is taken again.",
            "responses": {"200": _ok("The table after the undo", "Table"), **COMMON,
                          "401": _error("No token."), "403": _error("Not the host's token."),
                          "404": _error("No such table."),
                          "409": _error("Nothing to undo, or the table moved on.", True)}}},
        "/api/tables/{code}/take-back": {"post": {
            "summary": "Take back your own last move (a seat)", "operationId": "takeBack", "parameters": [CODE],
            "security": BEARER, "requestBody": _json_body("Versioned"),
            "description": ("Allowed while nothing another seat did since depends on it, and it rolled no dice, "
                            "drew nothing and showed nothing hidden; the table's `take_back` names the move "
                            "when it is allowed. Others moving since the version sent is no conflict."),
            "responses": {"200": _ok("The table after the take-back", "Table"), **COMMON,
                          "401": _error("No token."), "403": _error("Not a seat's token."),
                          "404": _error("No such table."),
                          "409": _error("Not allowed now (the sentence says why), or you moved since.", True)}}},
        "/api/tables/{code}/score": {"get": {
            "summary": "The final score with each player's breakdown", "operationId": "score",
            "parameters": [CODE],
            "responses": {"200": _ok("The result", "Result"), "404": _error("No such table."),
                          "409": _error("The game is not over yet.")}}},
    }
    paths.update(paper.openapi_paths())
    paths.update(plugins.openapi_paths())
    return {
        "openapi": "3.1.0",
        "info": {"title": "labkit companion", "version": API_VERSION,
                 "description": ("Drive a board-game table: create it, join seats, act, watch, score. "
                                 "POST bodies are JSON; cookies are never read by this API.")},
        "paths": paths,
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
                       "schemas": _schemas(chosen_seeds)},
    }


_VERSION = {"type": "integer"}
_ACTION = {"type": "object", "required": ["type"], "properties": {"type": {"type": "string", "minLength": 1}},
           "description": f"An action as the table's actions list gives it (at most {ACTION_MAX_CHARS} "
                          "characters of JSON)."}

SEED = {"type": "integer", "minimum": 0, "maximum": 2 ** 63 - 1,
        "description": "The table's seed: only a server started to allow chosen seeds (tests, benchmarks) takes one."}


def _schemas(chosen_seeds: bool) -> dict[str, Any]:
    """The schemas as this server has them: its games by name, and ``seed`` where it takes one."""
    from labkit import registry

    properties = {**SCHEMAS["CreateTable"]["properties"],
                  "game": {"type": "string", "enum": sorted(registry.names()),
                           "description": "One of GET /api/games."}}
    if chosen_seeds:
        properties["seed"] = SEED
    return {**SCHEMAS, "CreateTable": dict(SCHEMAS["CreateTable"], properties=properties)}


SCHEMAS: dict[str, Any] = {
    "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
    "ErrorWithTable": {"type": "object", "required": ["error"],
                       "properties": {"error": {"type": "string"}, "table": {"$ref": "#/components/schemas/Table"}}},
    "Version": {"type": "object", "required": ["version"], "properties": {"version": _VERSION}},
    "Versioned": {"type": "object", "required": ["version"], "properties": {"version": _VERSION}},
    "Bot": {"type": "object", "required": ["level"],
            "properties": {"level": {"type": "string", "enum": ["easy", "medium", "hard", "random", "greedy", "planner"]},
                           "name": {"type": "string", "description": "Lobby only; else one of ours (Ada, Bohr...)."}}},
    "Game": {"type": "object", "required": ["name", "title", "min_players", "max_players", "paper", "card_sets"],
             "properties": {"name": {"type": "string"}, "title": {"type": "string"},
                            "min_players": {"type": "integer"}, "max_players": {"type": "integer"},
                            "paper": {"type": "array", "items": {
                                "type": "object", "required": ["verb", "what", "format"],
                                "properties": {"verb": {"type": "string"}, "what": {"type": "string"},
                                               "format": {"type": "string"}}}},
                            "card_sets": {"type": "array", "items": {"$ref": "#/components/schemas/CardSet"},
                                          "description": "The server's own card sets of this game "
                                                         "(labkit serve --sets DIR)."}}},
    "PaperReport": {"type": "object", "required": ["ok", "title", "summary", "rows", "data"],
                    "properties": {"ok": {"type": "boolean"}, "title": {"type": "string"},
                                   "summary": {"type": "string"},
                                   "rows": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
                                   "data": {"type": "object"}}},
    "GameList": {"type": "object", "required": ["games"],
                 "properties": {"games": {"type": "array", "items": {"$ref": "#/components/schemas/Game"}}}},
    "CreateTable": {"type": "object", "required": ["game"],
                    "properties": {"game": {"type": "string"},
                                   "options": {"type": ["object", "null"],
                                               "description": "Game options (engine's setup); null: none."},
                                   "card_set": {"type": ["string", "null"], "maxLength": 200,
                                                "description": "The card set to play: \"own\" (the default, or null), "
                                                "one of the server's sets (its hash, file name or set.yaml name, "
                                                "as GET /api/games lists them), or the content hash of a set "
                                                "already stored (one a table was made with)."}}},
    "CardSet": {"type": "object", "required": ["hash", "name", "author", "version"],
                "properties": {"hash": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                                        "description": "The set's content hash (labkit.setfiles.content_hash)."},
                               "name": {"type": "string"}, "author": {"type": "string"},
                               "version": {"type": "string"},
                               "source": {"type": "string", "description": "Its file or folder on the server."}}},
    "SetRefused": {"type": "object", "required": ["error", "problems"],
                   "properties": {"error": {"type": "string"},
                                  "problems": {"type": "array", "items": {"type": "string"},
                                               "description": "Every problem, with its file, line and column."}}},
    "Created": {"type": "object", "required": ["code", "host_token", "url", "table"],
                "properties": {"code": {"type": "string", "minLength": CODE_LENGTHS.start, "maxLength": CODE_LENGTHS.stop - 1,
                                        "pattern": f"^[{CODE_ALPHABET}]+$"},
                               "host_token": {"type": "string"}, "url": {"type": "string"},
                               "table": {"$ref": "#/components/schemas/Table"}}},
    "Join": {"type": "object", "required": ["name"],
             "properties": {"name": {"type": "string", "minLength": 1, "maxLength": NAME_MAX}}},
    "Joined": {"type": "object", "required": ["seat", "token", "table"],
               "properties": {"seat": {"type": "integer", "minimum": 0}, "token": {"type": "string"},
                              "table": {"$ref": "#/components/schemas/Table"}}},
    "SeatToken": {"type": "object", "required": ["seat", "token"],
                  "properties": {"seat": {"type": "integer"}, "token": {"type": "string"}}},
    "Act": {"type": "object", "required": ["version", "action"],
            "properties": {"version": _VERSION, "action": _ACTION,
                           "action_id": {"type": "string", "minLength": 8, "maxLength": 64,
                                         "description": "Chosen by the client: a retried request with the same "
                                                        "id is applied at most once."}}},
    "Seat": {"type": "object", "required": ["seat", "name"],
             "properties": {"seat": {"type": "integer"}, "name": {"type": "string"},
                            "bot": {"type": ["string", "null"],
                                    "description": "A bot's level (random, greedy, planner); null: a person."},
                            "away_since": {"type": ["number", "null"],
                                           "description": "Since when (Unix time) the seat's phone has been away "
                                                          "from the table; null: there (or a bot)."}}},
    "Table": {"type": "object",
              "required": ["code", "game", "title", "status", "version", "moves", "min_players", "max_players",
                           "seats", "you", "to_move", "actions", "view", "result"],
              "properties": {
                  "code": {"type": "string"}, "game": {"type": "string"}, "title": {"type": "string"},
                  "status": {"enum": ["lobby", "playing", "over"]},
                  "version": _VERSION, "moves": {"type": "integer", "minimum": 0},
                  "min_players": {"type": "integer"}, "max_players": {"type": "integer"},
                  "seats": {"type": "array", "items": {"$ref": "#/components/schemas/Seat"}},
                  "you": {"type": "object", "required": ["seat", "host"],
                          "properties": {"seat": {"type": ["integer", "null"]}, "host": {"type": "boolean"}}},
                  "to_move": {"type": "array", "items": {"type": "integer"}},
                  "actions": {"type": "array", "items": _ACTION},
                  "view": {"type": ["object", "null"], "description": "What your seat may see (the engine's view)."},
                  "result": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Result"}]},
                  "notice": {"type": ["string", "null"],
                             "description": "What every phone is told of this version (an undo, a seat "
                                            "handed to a bot, a phone away), in words; null: nothing."},
                  "take_back": {"type": ["string", "null"],
                                "description": "The move your seat may take back now, in words (null: none)."},
                  "card_set": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/CardSet"}],
                               "description": "The card set the table plays (null: the game's own)."}}},
    "ScoreLine": {"type": "object", "required": ["key", "label", "points"],
                  "properties": {"key": {"type": "string"}, "label": {"type": "string"},
                                 "points": {"type": "integer"}}},
    "SeatScore": {"type": "object", "required": ["seat", "name", "lines", "total", "details"],
                  "properties": {"seat": {"type": "integer"}, "name": {"type": "string"},
                                 "lines": {"type": "array", "items": {"$ref": "#/components/schemas/ScoreLine"}},
                                 "total": {"type": "integer"}, "details": {"type": "object"}}},
    "Result": {"type": "object", "required": ["scores", "winners"],
               "properties": {"scores": {"type": "array", "items": {"$ref": "#/components/schemas/SeatScore"}},
                              "winners": {"type": "array", "items": {"type": "integer"}}}},
}
