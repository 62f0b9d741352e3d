// The API reference's "try it" forms: each sends its operation's request (path and query from the
// form's fields, the JSON body as typed) with a pasted bearer token, or else with this browser's
// signed-in session and its CSRF token, and shows the status and the answer as it came.
const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";
const tokenField = document.getElementById("api-token");

document.getElementById("api-auth")?.addEventListener("submit", (event) => event.preventDefault());

for (const form of document.querySelectorAll("form.api-try")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const output = form.querySelector(".api-result");
    const query = new URLSearchParams();
    let path = form.dataset.path;
    for (const input of form.querySelectorAll("input[data-in]")) {
      const value = input.value.trim();
      if (input.dataset.in === "path") path = path.replace(`{${input.name}}`, encodeURIComponent(value));
      else if (value !== "") query.append(input.name, value);
    }
    const url = path + (query.size ? `?${query}` : "");
    const headers = { Accept: "application/json, application/problem+json" };
    const token = tokenField?.value.trim();
    if (token) headers.Authorization = `Bearer ${token}`;
    else headers["X-CSRF-Token"] = csrf();
    let body;
    const text = form.querySelector("textarea[name=body]")?.value.trim();
    const file = form.querySelector("input[type=file]")?.files?.[0];
    if (text) {
      try { JSON.parse(text); } catch (error) {
        output.textContent = `The body is not JSON: ${error.message}`;
        return;
      }
      headers["Content-Type"] = "application/json";
      body = text;
    } else if (file) {
      headers["Content-Type"] = file.type || "application/octet-stream";
      body = file;
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    output.textContent = `${form.dataset.method} ${url} …`;
    try {
      const response = await fetch(url, {
        method: form.dataset.method, headers, body,
        credentials: token ? "omit" : "same-origin",
      });
      const type = response.headers.get("Content-Type") ?? "";
      let shown;
      if (type.includes("json")) {
        const raw = await response.text();
        try { shown = JSON.stringify(JSON.parse(raw), null, 2); } catch { shown = raw; }
      } else {
        const bytes = (await response.arrayBuffer()).byteLength;
        shown = bytes ? `${bytes} bytes of ${type || "unknown type"}` : "(no body)";
      }
      const location = response.headers.get("Location");
      output.textContent = `${response.status} ${response.statusText}${location ? `\nLocation: ${location}` : ""}\n\n${shown}`;
    } catch (error) {
      output.textContent = `The request did not reach the server: ${error.message}`;
    } finally {
      button.disabled = false;
    }
  });
}
