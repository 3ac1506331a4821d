import Foundation
import Glibc

/// The server behind `chartreel watch --preview`: the preview page on 127.0.0.1, and a
/// status the page polls to reload itself after each render.
///
/// Our own, and deliberately tiny: it binds the loopback address only, answers `GET` (and
/// `HEAD`) of exactly two paths from memory — `/` (the page) and `/status` (the render
/// count and the last error) — and nothing else (other methods 405, other paths 404), never
/// reads a file, and closes every connection after one answer. Debian packages no
/// embeddable HTTP server library for Swift (SwiftNIO and Vapor are SwiftPM dependencies,
/// which the project does not take), and the C ones it has (libmicrohttpd, civetweb) would
/// bring a whole server — TLS, POST bodies, file serving — to serve one page to one
/// browser on the same machine. A request is read up to its blank line, at most 8 KiB,
/// within 5 seconds, or the connection is dropped.
final class PreviewServer: @unchecked Sendable {
    /// The port it listens on.
    let port: UInt16
    private let socketFD: Int32
    private let lock = NSLock()
    private var page = Data("<!doctype html><title>chartreel</title><p>rendering…</p>".utf8)
    private var version = 0
    private var lastError = ""

    /// Listens on 127.0.0.1:`port` (0: any free port).
    init(port requested: UInt16) throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { throw ExitStatus(message: "error: --preview: cannot open a socket: \(String(cString: strerror(errno)))", code: 1) }
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requested.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, 16) == 0 else {
            let why = String(cString: strerror(errno))
            Glibc.close(socketFD)
            throw UsageError("--preview-port \(requested): cannot listen on 127.0.0.1:\(requested): \(why)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        self.socketFD = socketFD
        port = UInt16(bigEndian: actual.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// A new page after a render; the browser reloads.
    func publish(_ html: String) {
        lock.lock(); page = Data(html.utf8); version += 1; lastError = ""; lock.unlock()
    }

    /// A failed render: the page stays and shows `error`.
    func fail(_ error: String) {
        lock.lock(); lastError = error; lock.unlock()
    }

    private func serve() {
        while true {
            let client = accept(socketFD, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)   // not inherited by ffmpeg
            answer(client)
            Glibc.close(client)
        }
    }

    private func answer(_ client: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 2048)
        while request.count < 8192 {
            let n = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            request += chunk[0..<n]
            if request.count >= 4, String(decoding: request, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let line = String(decoding: request, as: UTF8.self).split(separator: "\r\n", maxSplits: 1).first ?? ""
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return send(client, 400, "text/plain", Data("bad request\n".utf8)) }
        let method = parts[0], path = parts[1]
        guard method == "GET" || method == "HEAD" else { return send(client, 405, "text/plain", Data("only GET\n".utf8), head: false) }
        lock.lock()
        let (body, type): (Data, String)
        switch path {
        case "/", "/index.html": (body, type) = (page, "text/html; charset=utf-8")
        case "/status": (body, type) = (Data("\(version)\n\(lastError)".utf8), "text/plain; charset=utf-8")
        default: (body, type) = (Data("not found\n".utf8), "text/plain")
        }
        let found = path == "/" || path == "/index.html" || path == "/status"
        lock.unlock()
        send(client, found ? 200 : 404, type, body, head: method == "HEAD")
    }

    private func send(_ client: Int32, _ status: Int, _ type: String, _ body: Data, head: Bool = false) {
        let reason = [200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"][status] ?? ""
        var bytes = Data(("HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
                          + "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n"
                          + (status == 405 ? "Allow: GET, HEAD\r\n" : "") + "\r\n").utf8)
        if !head { bytes += body }
        bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = Glibc.send(client, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                sent += n
            }
        }
    }
}

/// What the served page adds to the preview page: a poll of `/status` every half second
/// that reloads the page after a new render, and shows the last render's error.
let previewReloadScript = """
<div id="watch-error" style="display:none;position:fixed;left:0;right:0;bottom:0;background:#fee;color:#900;padding:8px 16px;font:12px/1.4 monospace;white-space:pre-wrap;border-top:1px solid #c99"></div>
<script>
"use strict";
(function () {
  let seen = null;
  async function poll() {
    try {
      const text = await (await fetch("/status", { cache: "no-store" })).text();
      const newline = text.indexOf("\\n");
      const version = text.slice(0, newline), error = text.slice(newline + 1);
      if (seen === null) seen = version;
      else if (version !== seen) { location.reload(); return; }
      const box = document.getElementById("watch-error");
      box.textContent = error; box.style.display = error ? "block" : "none";
    } catch (e) { /* the watch stopped: keep the page */ }
    setTimeout(poll, 500);
  }
  poll();
})();
</script>
"""
