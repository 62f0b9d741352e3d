/// The friendly page a person sees when something goes wrong in the browser.
struct ErrorPage {
    let problem: ProblemDetails

    func render(layout: Layout) -> HTML {
        layout.render("""
        <section class="card narrow error-page">
          <h1>\(problem.title)</h1>
          <p>\(problem.detail)</p>
          <p><a class="button" href="\(SiteURL.home.path)">Go to Forkcast</a></p>
        </section>
        """)
    }
}
