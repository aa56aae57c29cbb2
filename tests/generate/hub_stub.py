"""A local stand-in for the Hugging Face Hub: the endpoints `HfApi.create_repo` and
`HfApi.upload_folder` call, on 127.0.0.1, keeping what was committed.

It answers `POST /api/repos/create`, `POST /api/validate-yaml` (the card's metadata: valid),
`POST /api/datasets/OWNER/NAME/preupload/REV` (every file "regular", so no LFS transfer is
needed) and `POST /api/datasets/OWNER/NAME/commit/REV` (the NDJSON commit: header, then files
as base64), and records every request. A request it does not
know is answered 404 and recorded, so a test sees what a new huggingface_hub asks for.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class HubStub:
    """The stand-in's state: repositories, their commits, the requests seen."""

    url: str = ""
    #: repo id -> list of commits, each {"sha", "message", "files": {path: bytes}}
    repos: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    requests: list[tuple[str, str, int]] = field(default_factory=list)
    #: Card texts sent to /api/validate-yaml.
    cards: list[str] = field(default_factory=list)
    #: Answer the commit endpoint with this status (e.g. 403) instead of committing.
    fail_commit: int | None = None

    def files(self, repo_id: str) -> dict[str, bytes]:
        """The files of the repository's last commit."""
        return self.repos[repo_id][-1]["files"]


def _handler(stub: HubStub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def _answer(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            stub.requests.append((self.command, self.path, status))
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            parts = self.path.split("?")[0].strip("/").split("/")
            if parts[:3] == ["api", "repos", "create"]:
                request = json.loads(body)
                repo_id = f"{request.get('organization') or 'me'}/{request['name']}"
                if request.get("organization") is None and "/" in request["name"]:
                    repo_id = request["name"]
                stub.repos.setdefault(repo_id, [])
                self._answer(200, {"url": f"{stub.url}/datasets/{repo_id}", "name": repo_id})
            elif parts == ["api", "validate-yaml"]:
                stub.cards.append(json.loads(body)["content"])
                self._answer(200, {"errors": [], "warnings": []})
            elif parts[:2] == ["api", "datasets"] and len(parts) >= 6 and parts[4] == "preupload":
                files = json.loads(body)["files"]
                self._answer(
                    200,
                    {
                        "files": [
                            {"path": f["path"], "uploadMode": "regular", "shouldIgnore": False}
                            for f in files
                        ]
                    },  # fmt: skip
                )
            elif parts[:2] == ["api", "datasets"] and len(parts) >= 6 and parts[4] == "commit":
                self._commit(f"{parts[2]}/{parts[3]}", body)
            else:
                self._answer(404, {"error": f"stub: no route {self.command} {self.path}"})

        def _commit(self, repo_id: str, body: bytes) -> None:
            if stub.fail_commit is not None:
                self._answer(stub.fail_commit, {"error": "You don't have the rights"})
                return
            if repo_id not in stub.repos:
                self._answer(404, {"error": f"Repository {repo_id} not found"})
                return
            lines = [json.loads(line) for line in body.decode().splitlines() if line.strip()]
            header = next(line["value"] for line in lines if line["key"] == "header")
            files = dict(stub.repos[repo_id][-1]["files"]) if stub.repos[repo_id] else {}
            for line in lines:
                if line["key"] == "file":
                    files[line["value"]["path"]] = base64.b64decode(line["value"]["content"])
            digest = hashlib.sha1(json.dumps(sorted(files)).encode() + body).hexdigest()
            commit = {"sha": digest, "message": header["summary"], "files": files}
            stub.repos[repo_id].append(commit)
            self._answer(
                200,
                {
                    "commitUrl": f"{stub.url}/datasets/{repo_id}/commit/{digest}",
                    "commitOid": digest,
                    "pullRequestUrl": None,
                },  # fmt: skip
            )

    return Handler


def start_hub_stub() -> tuple[HubStub, ThreadingHTTPServer]:
    """Start the stand-in on a free port of 127.0.0.1; call `server.shutdown()` when done."""
    stub = HubStub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(stub))
    stub.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return stub, server
