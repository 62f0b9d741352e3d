--
-- PostgreSQL database dump
--

\restrict fCJdMwoVt73VUEugmlz3aEzLDifuNWGd4RZ5UstniEb83LKDFavxRwmutVZs7MC

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: _fluent_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public._fluent_migrations (
    id uuid NOT NULL,
    name text NOT NULL,
    batch bigint NOT NULL,
    created_at timestamp with time zone,
    updated_at timestamp with time zone
);


--
-- Name: api_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_tokens (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    token_hash text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone
);


--
-- Name: assignments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.assignments (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    meal_id uuid NOT NULL,
    date text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    meal_type text,
    servings bigint
);


--
-- Name: body_profiles; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.body_profiles (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    sex text NOT NULL,
    birth_date text NOT NULL,
    height_cm double precision NOT NULL,
    weight_kg double precision NOT NULL,
    activity_level text NOT NULL,
    aim text NOT NULL,
    updated_at timestamp with time zone NOT NULL
);


--
-- Name: catalog_foods; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.catalog_foods (
    id text NOT NULL,
    name text NOT NULL,
    category text,
    source text NOT NULL,
    nutrients text NOT NULL,
    portions text NOT NULL
);


--
-- Name: catalog_parts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.catalog_parts (
    id uuid NOT NULL,
    part text NOT NULL,
    version text NOT NULL,
    rows bigint NOT NULL,
    "position" bigint NOT NULL,
    complete boolean NOT NULL,
    updated_at timestamp with time zone NOT NULL
);


--
-- Name: diary_entries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.diary_entries (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    logged_at timestamp with time zone NOT NULL,
    local_date text NOT NULL,
    meal_type text NOT NULL,
    note text,
    kind text NOT NULL,
    food_id uuid,
    meal_id uuid,
    quantity double precision,
    unit text,
    name text NOT NULL,
    energy_kcal double precision,
    protein double precision,
    carbohydrates double precision,
    fat double precision,
    cost double precision,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    occasion_id uuid,
    photo_id uuid,
    micros text
);


--
-- Name: external_identities; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.external_identities (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    provider text NOT NULL,
    subject text NOT NULL,
    email text,
    created_at timestamp with time zone
);


--
-- Name: food_terms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.food_terms (
    id uuid NOT NULL,
    food_id uuid NOT NULL,
    user_id uuid NOT NULL,
    term text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: foods; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.foods (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    name text NOT NULL,
    search_key text NOT NULL,
    brand text,
    barcode text,
    basis text NOT NULL,
    energy_kcal double precision,
    protein double precision,
    carbohydrates double precision,
    fat double precision,
    fiber double precision,
    sugars double precision,
    saturated_fat double precision,
    salt double precision,
    serving_size double precision,
    serving_label text,
    portion text,
    price_amount double precision,
    price_per text,
    price_package_size double precision,
    icon text NOT NULL,
    source text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    catalog_id text,
    micros text
);


--
-- Name: goal_settings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.goal_settings (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    source text NOT NULL,
    energy_kcal double precision NOT NULL,
    protein double precision NOT NULL,
    carbohydrates double precision NOT NULL,
    fat double precision NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    targets text
);


--
-- Name: health_probe; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.health_probe (
    id bigint NOT NULL,
    checked_at double precision NOT NULL
);


--
-- Name: identity_nonces; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.identity_nonces (
    nonce_hash text NOT NULL,
    expires_at timestamp with time zone NOT NULL
);


--
-- Name: invitations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.invitations (
    id uuid NOT NULL,
    token_hash text NOT NULL,
    created_by uuid NOT NULL,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_by uuid,
    used_at timestamp with time zone
);


--
-- Name: known_clients; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.known_clients (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    key_hash text NOT NULL,
    last_seen_at timestamp with time zone NOT NULL
);


--
-- Name: login_buckets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.login_buckets (
    key text NOT NULL,
    tokens double precision NOT NULL,
    updated_at double precision NOT NULL
);


--
-- Name: meal_components; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.meal_components (
    id uuid NOT NULL,
    meal_id uuid NOT NULL,
    user_id uuid NOT NULL,
    "position" bigint NOT NULL,
    name text NOT NULL,
    name_key text NOT NULL
);


--
-- Name: meal_ingredients; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.meal_ingredients (
    id uuid NOT NULL,
    meal_id uuid NOT NULL,
    user_id uuid NOT NULL,
    food_id uuid NOT NULL,
    "position" bigint NOT NULL,
    quantity double precision NOT NULL,
    unit text NOT NULL
);


--
-- Name: meal_types; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.meal_types (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    key text,
    display_name text NOT NULL,
    name_key text NOT NULL,
    window_start bigint,
    window_end bigint,
    "position" bigint NOT NULL,
    hidden boolean NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);


--
-- Name: meals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.meals (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    description text NOT NULL,
    description_key text NOT NULL,
    primary_protein text,
    protein_key text,
    primary_carb text,
    carb_key text,
    search_text text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    servings bigint DEFAULT 1 NOT NULL,
    manual_energy_kcal double precision,
    manual_protein double precision,
    manual_carbohydrates double precision,
    manual_fat double precision
);


--
-- Name: openfoodfacts_cache; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.openfoodfacts_cache (
    id uuid NOT NULL,
    barcode text NOT NULL,
    found boolean NOT NULL,
    body text,
    fetched_at timestamp with time zone NOT NULL
);


--
-- Name: photo_blobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.photo_blobs (
    id uuid NOT NULL,
    photo_id uuid NOT NULL,
    variant text NOT NULL,
    data bytea NOT NULL
);


--
-- Name: photos; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.photos (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    format text NOT NULL,
    width bigint NOT NULL,
    height bigint NOT NULL,
    byte_size bigint NOT NULL,
    thumbnail_size bigint NOT NULL,
    captured_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);


--
-- Name: shopping_items; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.shopping_items (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    list_id uuid NOT NULL,
    name text NOT NULL,
    food_id uuid,
    quantity text,
    unit text,
    category text NOT NULL,
    category_chosen boolean NOT NULL,
    estimated_price text,
    checked boolean NOT NULL,
    source text NOT NULL,
    meals text NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    purchase text
);


--
-- Name: shopping_lists; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.shopping_lists (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    name text NOT NULL,
    from_date text NOT NULL,
    to_date text NOT NULL,
    share_token text,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL
);


--
-- Name: sync_heads; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sync_heads (
    owner_id uuid NOT NULL,
    seq bigint NOT NULL,
    added bigint NOT NULL
);


--
-- Name: sync_horizons; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sync_horizons (
    owner_id uuid NOT NULL,
    pruned_seq bigint NOT NULL
);


--
-- Name: sync_mutations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sync_mutations (
    owner_id uuid NOT NULL,
    device_id text NOT NULL,
    mutation_id text NOT NULL,
    result text NOT NULL,
    created_at double precision NOT NULL
);


--
-- Name: sync_records; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sync_records (
    owner_id uuid NOT NULL,
    kind text NOT NULL,
    record_id uuid NOT NULL,
    seq bigint NOT NULL,
    op text NOT NULL,
    updated_at double precision NOT NULL,
    device_id text NOT NULL,
    mutation_id text NOT NULL,
    changed_at double precision NOT NULL
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    id uuid NOT NULL,
    email text NOT NULL,
    email_key text NOT NULL,
    password_hash text NOT NULL,
    display_name text,
    time_zone text NOT NULL,
    created_at timestamp with time zone,
    updated_at timestamp with time zone,
    currency text DEFAULT 'EUR'::text NOT NULL
);


--
-- Name: web_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.web_sessions (
    id uuid NOT NULL,
    key_hash text NOT NULL,
    data text NOT NULL,
    expires_at timestamp with time zone NOT NULL
);


--
-- Name: weight_entries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.weight_entries (
    id uuid NOT NULL,
    user_id uuid NOT NULL,
    measured_at timestamp with time zone NOT NULL,
    weight_kg double precision NOT NULL,
    source text NOT NULL
);


--
-- Data for Name: _fluent_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public._fluent_migrations (id, name, batch, created_at, updated_at) FROM stdin;
a3264219-14b2-46b0-a2b7-636ef681156b	001_create_users	1	2026-12-02 07:36:48.801063+00	2026-12-02 07:36:48.801063+00
10d3ccdd-83df-408e-8463-9d8224bd5fd9	002_create_meals	1	2026-12-02 07:36:48.813329+00	2026-12-02 07:36:48.813329+00
144efbf0-e969-46c3-b5c7-03c94c101115	003_create_assignments	1	2026-12-02 07:36:48.818424+00	2026-12-02 07:36:48.818424+00
a13d247e-dcda-4db6-92ea-81e2186e98aa	004_create_login_throttles	1	2026-12-02 07:36:48.821719+00	2026-12-02 07:36:48.821719+00
e373fb88-573c-4e1c-9345-78ff4cd42e29	Fluent.SessionRecord.Create	1	2026-12-02 07:36:48.824803+00	2026-12-02 07:36:48.824803+00
07790362-6e10-4210-8e13-0b539ba97de5	005_create_foods	1	2026-12-02 07:36:48.847839+00	2026-12-02 07:36:48.847839+00
d074937c-ca16-435e-b84d-a2f71ed30c59	006_create_diary	1	2026-12-02 07:36:48.860131+00	2026-12-02 07:36:48.860131+00
a71b0a76-7a6f-4209-bc62-eff480aeb7ec	007_hardening	1	2026-12-02 07:36:48.874861+00	2026-12-02 07:36:48.874861+00
fe7555d7-ffed-4c28-8a4e-f32d6b03b8bf	008_create_sync_records	1	2026-12-02 07:36:48.885004+00	2026-12-02 07:36:48.885004+00
1c4016d6-2cc6-43cd-9c40-f23bbbea3c48	009_plan_slots	1	2026-12-02 07:36:48.889049+00	2026-12-02 07:36:48.889049+00
8d8e2208-46fd-442a-9ab4-671d6cce5526	010_meal_occasions	1	2026-12-02 07:36:48.902684+00	2026-12-02 07:36:48.902684+00
6799e8e3-25df-4481-aa6f-7132795dd5e5	ForkcastServer.M011_SearchIndex	1	2026-12-02 07:36:48.906001+00	2026-12-02 07:36:48.906001+00
f2549487-f281-4541-828f-cf89884e9910	ForkcastServer.M012_ExternalIdentities	1	2026-12-02 07:36:48.911969+00	2026-12-02 07:36:48.911969+00
36491891-1ef0-4d9a-91ab-fdec10e90c00	ForkcastServer.M013_SyncKindIndex	1	2026-12-02 07:36:48.91444+00	2026-12-02 07:36:48.91444+00
45b62899-e503-4548-bcb5-1a9c4b659a42	ForkcastServer.M014_PhotoOnOneEntry	1	2026-12-02 07:36:48.91764+00	2026-12-02 07:36:48.91764+00
cad60140-f143-4809-9827-6ee975c8f6a3	ForkcastServer.M015_FoodCatalog	1	2026-12-02 07:36:48.927669+00	2026-12-02 07:36:48.927669+00
85034a0a-c219-40d4-957d-c1d29b3624e5	ForkcastServer.M016_ShoppingLists	1	2026-12-02 07:36:48.938779+00	2026-12-02 07:36:48.938779+00
7a89e1e0-023f-45b6-889e-87924d96cbd0	ForkcastServer.M017_Invitations	1	2026-12-02 07:36:48.943201+00	2026-12-02 07:36:48.943201+00
ddd2b7b5-721e-47bd-953e-fdf60b3ba9b3	ForkcastServer.M018_SyncHeads	1	2026-12-02 07:36:48.9472+00	2026-12-02 07:36:48.9472+00
a6e96906-e03d-411e-8ce6-89cde3cbb594	ForkcastServer.M019_MealNumberOrder	1	2026-12-02 07:36:48.949233+00	2026-12-02 07:36:48.949233+00
7bd28f46-96ad-419a-9366-dbdb40b3dca2	ForkcastServer.M020_ShoppingPurchase	1	2026-12-02 07:36:48.951373+00	2026-12-02 07:36:48.951373+00
\.


--
-- Data for Name: api_tokens; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.api_tokens (id, user_id, token_hash, expires_at, created_at) FROM stdin;
b608f29b-1ef7-4a15-b8d2-442d90c61bdc	01a235af-5d52-7e0c-8326-6dcf32c1d607	e0343625ee32b114a76695965bcea571c04d9bd3b140e5137f19ac13f5ff2e28	2027-01-01 07:36:54.885132+00	2026-12-02 07:36:54.886003+00
1f1dd783-72be-497f-9acc-72d13c35f9aa	01a235af-5de7-7e6b-a25c-4eda6008142e	c4f97d64e55ec098a8eaa3656cd51b3038f05f0b7b1ab159f92c2b357bafc0dc	2027-01-01 07:36:55.026961+00	2026-12-02 07:36:55.027438+00
\.


--
-- Data for Name: assignments; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.assignments (id, user_id, meal_id, date, created_at, meal_type, servings) FROM stdin;
01a235af-5d90-7267-a344-9dd31333b1f3	01a235af-5d52-7e0c-8326-6dcf32c1d607	01a235af-5d81-7250-998a-868be99dc6ed	2026-12-02	2026-12-02 07:36:54.928928+00	dinner	\N
01a235af-5e15-7308-8a76-f3bc0743ade6	01a235af-5de7-7e6b-a25c-4eda6008142e	01a235af-5e07-795f-8555-8f463f89238a	2026-12-02	2026-12-02 07:36:55.061456+00	dinner	\N
\.


--
-- Data for Name: body_profiles; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.body_profiles (id, user_id, sex, birth_date, height_cm, weight_kg, activity_level, aim, updated_at) FROM stdin;
\.


--
-- Data for Name: catalog_foods; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.catalog_foods (id, name, category, source, nutrients, portions) FROM stdin;
\.


--
-- Data for Name: catalog_parts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.catalog_parts (id, part, version, rows, "position", complete, updated_at) FROM stdin;
\.


--
-- Data for Name: diary_entries; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.diary_entries (id, user_id, logged_at, local_date, meal_type, note, kind, food_id, meal_id, quantity, unit, name, energy_kcal, protein, carbohydrates, fat, cost, created_at, updated_at, occasion_id, photo_id, micros) FROM stdin;
01a235af-5da6-7ac9-bfec-d00a16d6b167	01a235af-5d52-7e0c-8326-6dcf32c1d607	2026-12-02 07:36:54.950703+00	2026-12-02	lunch	\N	food	01a235af-5d71-72f0-a754-5147be3d5b5a	\N	120	g	Chickpeas	196.8	10.68	\N	\N	\N	2026-12-02 07:36:54.950703+00	2026-12-02 07:36:54.950703+00	1ac41e50-dd19-8cc2-97c2-10cc503e1703	\N	\N
01a235af-5e27-7fa6-94bd-175d6c564cf3	01a235af-5de7-7e6b-a25c-4eda6008142e	2026-12-02 07:36:55.079+00	2026-12-02	lunch	\N	food	01a235af-5dfa-799d-8d5e-e99ebd1b86a6	\N	120	g	Chickpeas	196.8	10.68	\N	\N	\N	2026-12-02 07:36:55.079+00	2026-12-02 07:36:55.079+00	353dbb38-4f5f-8ebb-b8d6-d0431f1920d2	\N	\N
\.


--
-- Data for Name: external_identities; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.external_identities (id, user_id, provider, subject, email, created_at) FROM stdin;
\.


--
-- Data for Name: food_terms; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.food_terms (id, food_id, user_id, term) FROM stdin;
01a235af-5d74-79b1-80dc-cab2ad97b19e	01a235af-5d71-72f0-a754-5147be3d5b5a	01a235af-5d52-7e0c-8326-6dcf32c1d607	chickpeas
01a235af-5d74-7c84-b01d-c68ad4c208f8	01a235af-5d71-72f0-a754-5147be3d5b5a	01a235af-5d52-7e0c-8326-6dcf32c1d607	hickpeas
01a235af-5d74-7c8f-bd47-2ff368e4077f	01a235af-5d71-72f0-a754-5147be3d5b5a	01a235af-5d52-7e0c-8326-6dcf32c1d607	ickpeas
01a235af-5d74-75fd-9fd6-1aa587958678	01a235af-5d71-72f0-a754-5147be3d5b5a	01a235af-5d52-7e0c-8326-6dcf32c1d607	ckpeas
01a235af-5d74-733c-b028-dc82874d19ec	01a235af-5d71-72f0-a754-5147be3d5b5a	01a235af-5d52-7e0c-8326-6dcf32c1d607	kpeas
01a235af-5d74-7d1f-8773-5f79aa33cdc7	01a235af-5d71-72f0-a754-5147be3d5b5a	01a235af-5d52-7e0c-8326-6dcf32c1d607	peas
01a235af-5d74-7aeb-9e18-d590847b17fc	01a235af-5d71-72f0-a754-5147be3d5b5a	01a235af-5d52-7e0c-8326-6dcf32c1d607	eas
01a235af-5dfd-7ad9-b43a-3570c850a027	01a235af-5dfa-799d-8d5e-e99ebd1b86a6	01a235af-5de7-7e6b-a25c-4eda6008142e	chickpeas
01a235af-5dfd-766e-b8c6-4d8453a84c5d	01a235af-5dfa-799d-8d5e-e99ebd1b86a6	01a235af-5de7-7e6b-a25c-4eda6008142e	hickpeas
01a235af-5dfd-73ca-b290-a4e5012c989e	01a235af-5dfa-799d-8d5e-e99ebd1b86a6	01a235af-5de7-7e6b-a25c-4eda6008142e	ickpeas
01a235af-5dfd-7de1-a0da-c0577e9fe0ba	01a235af-5dfa-799d-8d5e-e99ebd1b86a6	01a235af-5de7-7e6b-a25c-4eda6008142e	ckpeas
01a235af-5dfd-7631-80c3-d3e9daa32d01	01a235af-5dfa-799d-8d5e-e99ebd1b86a6	01a235af-5de7-7e6b-a25c-4eda6008142e	kpeas
01a235af-5dfd-7302-94a0-70c8e858eacd	01a235af-5dfa-799d-8d5e-e99ebd1b86a6	01a235af-5de7-7e6b-a25c-4eda6008142e	peas
01a235af-5dfd-770e-9b08-1b6ef0b55ef9	01a235af-5dfa-799d-8d5e-e99ebd1b86a6	01a235af-5de7-7e6b-a25c-4eda6008142e	eas
\.


--
-- Data for Name: foods; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.foods (id, user_id, name, search_key, brand, barcode, basis, energy_kcal, protein, carbohydrates, fat, fiber, sugars, saturated_fat, salt, serving_size, serving_label, portion, price_amount, price_per, price_package_size, icon, source, created_at, updated_at, catalog_id, micros) FROM stdin;
01a235af-5d71-72f0-a754-5147be3d5b5a	01a235af-5d52-7e0c-8326-6dcf32c1d607	Chickpeas	chickpeas 	\N	\N	g	164	8.9	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	generic	custom	2026-12-02 07:36:54.897549+00	2026-12-02 07:36:54.897549+00	\N	\N
01a235af-5dfa-799d-8d5e-e99ebd1b86a6	01a235af-5de7-7e6b-a25c-4eda6008142e	Chickpeas	chickpeas 	\N	\N	g	164	8.9	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	generic	custom	2026-12-02 07:36:55.034524+00	2026-12-02 07:36:55.034524+00	\N	\N
\.


--
-- Data for Name: goal_settings; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.goal_settings (id, user_id, source, energy_kcal, protein, carbohydrates, fat, updated_at, targets) FROM stdin;
\.


--
-- Data for Name: health_probe; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.health_probe (id, checked_at) FROM stdin;
\.


--
-- Data for Name: identity_nonces; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.identity_nonces (nonce_hash, expires_at) FROM stdin;
\.


--
-- Data for Name: invitations; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.invitations (id, token_hash, created_by, created_at, expires_at, used_by, used_at) FROM stdin;
\.


--
-- Data for Name: known_clients; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.known_clients (id, user_id, key_hash, last_seen_at) FROM stdin;
01a235af-5d63-7f46-908e-8a5892cb9507	01a235af-5d52-7e0c-8326-6dcf32c1d607	888ce9be449264ae3ea5f380674e8b676e92a4e3e15f8c2bd453e410337f1e45	2026-12-02 07:36:54.881071+00
01a235af-5df1-76ce-8619-839601203977	01a235af-5de7-7e6b-a25c-4eda6008142e	888ce9be449264ae3ea5f380674e8b676e92a4e3e15f8c2bd453e410337f1e45	2026-12-02 07:36:55.023505+00
\.


--
-- Data for Name: login_buckets; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.login_buckets (key, tokens, updated_at) FROM stdin;
\.


--
-- Data for Name: meal_components; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.meal_components (id, meal_id, user_id, "position", name, name_key) FROM stdin;
\.


--
-- Data for Name: meal_ingredients; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.meal_ingredients (id, meal_id, user_id, food_id, "position", quantity, unit) FROM stdin;
01a235af-5d86-789d-aacf-d9773e76f72a	01a235af-5d81-7250-998a-868be99dc6ed	01a235af-5d52-7e0c-8326-6dcf32c1d607	01a235af-5d71-72f0-a754-5147be3d5b5a	0	300	g
01a235af-5e0a-7cce-b35b-424e6159bf43	01a235af-5e07-795f-8555-8f463f89238a	01a235af-5de7-7e6b-a25c-4eda6008142e	01a235af-5dfa-799d-8d5e-e99ebd1b86a6	0	300	g
\.


--
-- Data for Name: meal_types; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.meal_types (id, user_id, key, display_name, name_key, window_start, window_end, "position", hidden, created_at, updated_at) FROM stdin;
bacf71f6-35b4-8b77-81d0-5e215995bf0d	01a235af-5d52-7e0c-8326-6dcf32c1d607	breakfast	Breakfast	breakfast	0	659	0	f	2026-12-02 07:36:54.865224+00	2026-12-02 07:36:54.865224+00
63fb83be-2aed-8d39-a86c-0e4fc0d02143	01a235af-5d52-7e0c-8326-6dcf32c1d607	lunch	Lunch	lunch	660	899	1	f	2026-12-02 07:36:54.865224+00	2026-12-02 07:36:54.865224+00
31a8f287-8484-853e-aff1-b35575b9f486	01a235af-5d52-7e0c-8326-6dcf32c1d607	dinner	Dinner	dinner	1080	1439	2	f	2026-12-02 07:36:54.865224+00	2026-12-02 07:36:54.865224+00
28aff4af-81e0-8e41-95e0-3d337ceeaf04	01a235af-5d52-7e0c-8326-6dcf32c1d607	afternoon-snack	Afternoon Snack	afternoon snack	900	1079	3	f	2026-12-02 07:36:54.865224+00	2026-12-02 07:36:54.865224+00
512789e0-af05-8937-ae60-dbbccd5f1fde	01a235af-5d52-7e0c-8326-6dcf32c1d607	snack	Snack	snack	\N	\N	4	f	2026-12-02 07:36:54.865224+00	2026-12-02 07:36:54.865224+00
537d7d54-fbd5-8c71-af6a-546297ca3f5c	01a235af-5d52-7e0c-8326-6dcf32c1d607	workout-fuel	Workout Fuel	workout fuel	\N	\N	5	f	2026-12-02 07:36:54.865224+00	2026-12-02 07:36:54.865224+00
8ff16b57-b18b-8673-8491-1bca113fd461	01a235af-5d52-7e0c-8326-6dcf32c1d607	protein-shake	Protein Shake	protein shake	\N	\N	6	f	2026-12-02 07:36:54.865224+00	2026-12-02 07:36:54.865224+00
27fc2abd-78bd-8daa-a016-d617da753b5d	01a235af-5de7-7e6b-a25c-4eda6008142e	breakfast	Breakfast	breakfast	0	659	0	f	2026-12-02 07:36:55.013938+00	2026-12-02 07:36:55.013938+00
86315fd0-7987-8d3b-a9d9-5e2b0c2ec1e6	01a235af-5de7-7e6b-a25c-4eda6008142e	lunch	Lunch	lunch	660	899	1	f	2026-12-02 07:36:55.013938+00	2026-12-02 07:36:55.013938+00
d6df0788-6f07-8f38-8cab-7d2560b2fdfd	01a235af-5de7-7e6b-a25c-4eda6008142e	dinner	Dinner	dinner	1080	1439	2	f	2026-12-02 07:36:55.013938+00	2026-12-02 07:36:55.013938+00
5900e78a-7b50-82d2-80e3-5c1cf15e4c1a	01a235af-5de7-7e6b-a25c-4eda6008142e	afternoon-snack	Afternoon Snack	afternoon snack	900	1079	3	f	2026-12-02 07:36:55.013938+00	2026-12-02 07:36:55.013938+00
ecfd9ff0-4d9e-8fbb-8fd8-4c70324d205e	01a235af-5de7-7e6b-a25c-4eda6008142e	snack	Snack	snack	\N	\N	4	f	2026-12-02 07:36:55.013938+00	2026-12-02 07:36:55.013938+00
f4d12e39-5449-8ebf-90e0-2e1408726672	01a235af-5de7-7e6b-a25c-4eda6008142e	workout-fuel	Workout Fuel	workout fuel	\N	\N	5	f	2026-12-02 07:36:55.013938+00	2026-12-02 07:36:55.013938+00
ae1c797d-737d-8638-81e5-f3a5515bc5d8	01a235af-5de7-7e6b-a25c-4eda6008142e	protein-shake	Protein Shake	protein shake	\N	\N	6	f	2026-12-02 07:36:55.013938+00	2026-12-02 07:36:55.013938+00
\.


--
-- Data for Name: meals; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.meals (id, user_id, description, description_key, primary_protein, protein_key, primary_carb, carb_key, search_text, created_at, updated_at, servings, manual_energy_kcal, manual_protein, manual_carbohydrates, manual_fat) FROM stdin;
01a235af-5d81-7250-998a-868be99dc6ed	01a235af-5d52-7e0c-8326-6dcf32c1d607	Chili	chili	\N	\N	\N	\N	chili	2026-12-02 07:36:54.913024+00	2026-12-02 07:36:54.913024+00	2	\N	\N	\N	\N
01a235af-5e07-795f-8555-8f463f89238a	01a235af-5de7-7e6b-a25c-4eda6008142e	Chili	chili	\N	\N	\N	\N	chili	2026-12-02 07:36:55.047384+00	2026-12-02 07:36:55.047384+00	2	\N	\N	\N	\N
\.


--
-- Data for Name: openfoodfacts_cache; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.openfoodfacts_cache (id, barcode, found, body, fetched_at) FROM stdin;
\.


--
-- Data for Name: photo_blobs; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.photo_blobs (id, photo_id, variant, data) FROM stdin;
\.


--
-- Data for Name: photos; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.photos (id, user_id, format, width, height, byte_size, thumbnail_size, captured_at, created_at, updated_at) FROM stdin;
\.


--
-- Data for Name: shopping_items; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.shopping_items (id, user_id, list_id, name, food_id, quantity, unit, category, category_chosen, estimated_price, checked, source, meals, updated_at, purchase) FROM stdin;
01a235af-5dd8-751a-9262-640df861c397	01a235af-5d52-7e0c-8326-6dcf32c1d607	01a235af-5dc1-79ad-b131-7bc6e0311990	Chickpeas	01a235af-5d71-72f0-a754-5147be3d5b5a	300	g	Other	f	\N	f	plan	Chili	2026-12-02 07:36:54.977843+00	\N
01a235af-5e53-7b38-bdf7-c595086c888d	01a235af-5de7-7e6b-a25c-4eda6008142e	01a235af-5e44-7929-b05c-322d5270e82b	Chickpeas	01a235af-5dfa-799d-8d5e-e99ebd1b86a6	300	g	Other	f	\N	f	plan	Chili	2026-12-02 07:36:55.108671+00	\N
\.


--
-- Data for Name: shopping_lists; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.shopping_lists (id, user_id, name, from_date, to_date, share_token, created_at, updated_at) FROM stdin;
01a235af-5dc1-79ad-b131-7bc6e0311990	01a235af-5d52-7e0c-8326-6dcf32c1d607	Shopping 2 December	2026-12-02	2026-12-02	\N	2026-12-02 07:36:54.977843+00	2026-12-02 07:36:54.977843+00
01a235af-5e44-7929-b05c-322d5270e82b	01a235af-5de7-7e6b-a25c-4eda6008142e	Shopping 2 December	2026-12-02	2026-12-02	\N	2026-12-02 07:36:55.108671+00	2026-12-02 07:36:55.108671+00
\.


--
-- Data for Name: sync_heads; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sync_heads (owner_id, seq, added) FROM stdin;
01a235af-5d52-7e0c-8326-6dcf32c1d607	15	1
01a235af-5de7-7e6b-a25c-4eda6008142e	15	1
\.


--
-- Data for Name: sync_horizons; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sync_horizons (owner_id, pruned_seq) FROM stdin;
\.


--
-- Data for Name: sync_mutations; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sync_mutations (owner_id, device_id, mutation_id, result, created_at) FROM stdin;
\.


--
-- Data for Name: sync_records; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sync_records (owner_id, kind, record_id, seq, op, updated_at, device_id, mutation_id, changed_at) FROM stdin;
01a235af-5d52-7e0c-8326-6dcf32c1d607	settings	01a235af-5d52-7e0c-8326-6dcf32c1d607	1	upsert	1796197014.8652246	server		1796197014.8652246
01a235af-5d52-7e0c-8326-6dcf32c1d607	mealType	bacf71f6-35b4-8b77-81d0-5e215995bf0d	2	upsert	1796197014.8652246	server		1796197014.8652246
01a235af-5d52-7e0c-8326-6dcf32c1d607	mealType	63fb83be-2aed-8d39-a86c-0e4fc0d02143	3	upsert	1796197014.8652246	server		1796197014.8652246
01a235af-5d52-7e0c-8326-6dcf32c1d607	mealType	31a8f287-8484-853e-aff1-b35575b9f486	4	upsert	1796197014.8652246	server		1796197014.8652246
01a235af-5d52-7e0c-8326-6dcf32c1d607	mealType	28aff4af-81e0-8e41-95e0-3d337ceeaf04	5	upsert	1796197014.8652246	server		1796197014.8652246
01a235af-5d52-7e0c-8326-6dcf32c1d607	mealType	512789e0-af05-8937-ae60-dbbccd5f1fde	6	upsert	1796197014.8652246	server		1796197014.8652246
01a235af-5d52-7e0c-8326-6dcf32c1d607	mealType	537d7d54-fbd5-8c71-af6a-546297ca3f5c	7	upsert	1796197014.8652246	server		1796197014.8652246
01a235af-5d52-7e0c-8326-6dcf32c1d607	mealType	8ff16b57-b18b-8673-8491-1bca113fd461	8	upsert	1796197014.8652246	server		1796197014.8652246
01a235af-5d52-7e0c-8326-6dcf32c1d607	food	01a235af-5d71-72f0-a754-5147be3d5b5a	9	upsert	1796197014.8975492	server		1796197014.8975492
01a235af-5d52-7e0c-8326-6dcf32c1d607	meal	01a235af-5d81-7250-998a-868be99dc6ed	10	upsert	1796197014.9130244	server		1796197014.9130244
01a235af-5d52-7e0c-8326-6dcf32c1d607	assignment	01a235af-5d90-7267-a344-9dd31333b1f3	11	upsert	1796197014.928928	server		1796197014.928928
01a235af-5d52-7e0c-8326-6dcf32c1d607	diaryEntry	01a235af-5da6-7ac9-bfec-d00a16d6b167	12	upsert	1796197014.9507031	server		1796197014.9507031
01a235af-5d52-7e0c-8326-6dcf32c1d607	weight	01a235af-5db5-7952-83a0-bc888d357c14	13	upsert	1796197014.965766	server		1796197014.965766
01a235af-5d52-7e0c-8326-6dcf32c1d607	shoppingList	01a235af-5dc1-79ad-b131-7bc6e0311990	14	upsert	1796197014.9778433	server		1796197014.9778433
01a235af-5d52-7e0c-8326-6dcf32c1d607	shoppingItem	01a235af-5dd8-751a-9262-640df861c397	15	upsert	1796197014.9778433	server		1796197014.9778433
01a235af-5de7-7e6b-a25c-4eda6008142e	settings	01a235af-5de7-7e6b-a25c-4eda6008142e	1	upsert	1796197015.0139387	server		1796197015.0139387
01a235af-5de7-7e6b-a25c-4eda6008142e	mealType	27fc2abd-78bd-8daa-a016-d617da753b5d	2	upsert	1796197015.0139387	server		1796197015.0139387
01a235af-5de7-7e6b-a25c-4eda6008142e	mealType	86315fd0-7987-8d3b-a9d9-5e2b0c2ec1e6	3	upsert	1796197015.0139387	server		1796197015.0139387
01a235af-5de7-7e6b-a25c-4eda6008142e	mealType	d6df0788-6f07-8f38-8cab-7d2560b2fdfd	4	upsert	1796197015.0139387	server		1796197015.0139387
01a235af-5de7-7e6b-a25c-4eda6008142e	mealType	5900e78a-7b50-82d2-80e3-5c1cf15e4c1a	5	upsert	1796197015.0139387	server		1796197015.0139387
01a235af-5de7-7e6b-a25c-4eda6008142e	mealType	ecfd9ff0-4d9e-8fbb-8fd8-4c70324d205e	6	upsert	1796197015.0139387	server		1796197015.0139387
01a235af-5de7-7e6b-a25c-4eda6008142e	mealType	f4d12e39-5449-8ebf-90e0-2e1408726672	7	upsert	1796197015.0139387	server		1796197015.0139387
01a235af-5de7-7e6b-a25c-4eda6008142e	mealType	ae1c797d-737d-8638-81e5-f3a5515bc5d8	8	upsert	1796197015.0139387	server		1796197015.0139387
01a235af-5de7-7e6b-a25c-4eda6008142e	food	01a235af-5dfa-799d-8d5e-e99ebd1b86a6	9	upsert	1796197015.0345244	server		1796197015.0345244
01a235af-5de7-7e6b-a25c-4eda6008142e	meal	01a235af-5e07-795f-8555-8f463f89238a	10	upsert	1796197015.047384	server		1796197015.047384
01a235af-5de7-7e6b-a25c-4eda6008142e	assignment	01a235af-5e15-7308-8a76-f3bc0743ade6	11	upsert	1796197015.0614567	server		1796197015.0614567
01a235af-5de7-7e6b-a25c-4eda6008142e	diaryEntry	01a235af-5e27-7fa6-94bd-175d6c564cf3	12	upsert	1796197015.079	server		1796197015.079
01a235af-5de7-7e6b-a25c-4eda6008142e	weight	01a235af-5e37-705f-84e6-dddee89f92c8	13	upsert	1796197015.0953515	server		1796197015.0953515
01a235af-5de7-7e6b-a25c-4eda6008142e	shoppingList	01a235af-5e44-7929-b05c-322d5270e82b	14	upsert	1796197015.1086712	server		1796197015.1086712
01a235af-5de7-7e6b-a25c-4eda6008142e	shoppingItem	01a235af-5e53-7b38-bdf7-c595086c888d	15	upsert	1796197015.1086712	server		1796197015.1086712
\.


--
-- Data for Name: users; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.users (id, email, email_key, password_hash, display_name, time_zone, created_at, updated_at, currency) FROM stdin;
01a235af-5d52-7e0c-8326-6dcf32c1d607	ana@example.com	ana@example.com	$2b$04$AZvMUPB69ka/Tyiq.8.lvONqiMq0.1Us.Ye1psuy7liMmHK9TFcYW	Ana	UTC	2026-12-02 07:36:54.869894+00	2026-12-02 07:36:54.869894+00	EUR
01a235af-5de7-7e6b-a25c-4eda6008142e	ben@example.com	ben@example.com	$2b$04$8P2USD6hb8yjW6GTT/w.je3lQZrVMrW/9jgrqyWJ8QglUoxDM7wCC	\N	UTC	2026-12-02 07:36:55.016817+00	2026-12-02 07:36:55.016817+00	EUR
\.


--
-- Data for Name: web_sessions; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.web_sessions (id, key_hash, data, expires_at) FROM stdin;
\.


--
-- Data for Name: weight_entries; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.weight_entries (id, user_id, measured_at, weight_kg, source) FROM stdin;
01a235af-5db5-7952-83a0-bc888d357c14	01a235af-5d52-7e0c-8326-6dcf32c1d607	2026-12-02 07:36:54.965766+00	70.5	manual
01a235af-5e37-705f-84e6-dddee89f92c8	01a235af-5de7-7e6b-a25c-4eda6008142e	2026-12-02 07:36:55.095351+00	70.5	manual
\.


--
-- Name: _fluent_migrations _fluent_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public._fluent_migrations
    ADD CONSTRAINT _fluent_migrations_pkey PRIMARY KEY (id);


--
-- Name: api_tokens api_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT api_tokens_pkey PRIMARY KEY (id);


--
-- Name: assignments assignments_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignments
    ADD CONSTRAINT assignments_pkey PRIMARY KEY (id);


--
-- Name: body_profiles body_profiles_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.body_profiles
    ADD CONSTRAINT body_profiles_pkey PRIMARY KEY (id);


--
-- Name: catalog_foods catalog_foods_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.catalog_foods
    ADD CONSTRAINT catalog_foods_pkey PRIMARY KEY (id);


--
-- Name: catalog_parts catalog_parts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.catalog_parts
    ADD CONSTRAINT catalog_parts_pkey PRIMARY KEY (id);


--
-- Name: diary_entries diary_entries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.diary_entries
    ADD CONSTRAINT diary_entries_pkey PRIMARY KEY (id);


--
-- Name: external_identities external_identities_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.external_identities
    ADD CONSTRAINT external_identities_pkey PRIMARY KEY (id);


--
-- Name: food_terms food_terms_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.food_terms
    ADD CONSTRAINT food_terms_pkey PRIMARY KEY (id);


--
-- Name: foods foods_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.foods
    ADD CONSTRAINT foods_pkey PRIMARY KEY (id);


--
-- Name: goal_settings goal_settings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.goal_settings
    ADD CONSTRAINT goal_settings_pkey PRIMARY KEY (id);


--
-- Name: health_probe health_probe_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.health_probe
    ADD CONSTRAINT health_probe_pkey PRIMARY KEY (id);


--
-- Name: identity_nonces identity_nonces_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.identity_nonces
    ADD CONSTRAINT identity_nonces_pkey PRIMARY KEY (nonce_hash);


--
-- Name: invitations invitations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitations
    ADD CONSTRAINT invitations_pkey PRIMARY KEY (id);


--
-- Name: known_clients known_clients_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.known_clients
    ADD CONSTRAINT known_clients_pkey PRIMARY KEY (id);


--
-- Name: meal_components meal_components_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meal_components
    ADD CONSTRAINT meal_components_pkey PRIMARY KEY (id);


--
-- Name: meal_ingredients meal_ingredients_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meal_ingredients
    ADD CONSTRAINT meal_ingredients_pkey PRIMARY KEY (id);


--
-- Name: meal_types meal_types_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meal_types
    ADD CONSTRAINT meal_types_pkey PRIMARY KEY (id);


--
-- Name: meals meals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meals
    ADD CONSTRAINT meals_pkey PRIMARY KEY (id);


--
-- Name: openfoodfacts_cache openfoodfacts_cache_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.openfoodfacts_cache
    ADD CONSTRAINT openfoodfacts_cache_pkey PRIMARY KEY (id);


--
-- Name: photo_blobs photo_blobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photo_blobs
    ADD CONSTRAINT photo_blobs_pkey PRIMARY KEY (id);


--
-- Name: photos photos_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photos
    ADD CONSTRAINT photos_pkey PRIMARY KEY (id);


--
-- Name: shopping_items shopping_items_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shopping_items
    ADD CONSTRAINT shopping_items_pkey PRIMARY KEY (id);


--
-- Name: shopping_lists shopping_lists_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shopping_lists
    ADD CONSTRAINT shopping_lists_pkey PRIMARY KEY (id);


--
-- Name: sync_heads sync_heads_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_heads
    ADD CONSTRAINT sync_heads_pkey PRIMARY KEY (owner_id);


--
-- Name: sync_horizons sync_horizons_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_horizons
    ADD CONSTRAINT sync_horizons_pkey PRIMARY KEY (owner_id);


--
-- Name: _fluent_migrations uq:_fluent_migrations.name; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public._fluent_migrations
    ADD CONSTRAINT "uq:_fluent_migrations.name" UNIQUE (name);


--
-- Name: api_tokens uq:api_tokens.token_hash; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT "uq:api_tokens.token_hash" UNIQUE (token_hash);


--
-- Name: body_profiles uq:body_profiles.user_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.body_profiles
    ADD CONSTRAINT "uq:body_profiles.user_id" UNIQUE (user_id);


--
-- Name: catalog_parts uq:catalog_parts.part; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.catalog_parts
    ADD CONSTRAINT "uq:catalog_parts.part" UNIQUE (part);


--
-- Name: external_identities uq:external_identities.provider+external_identities.subject; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.external_identities
    ADD CONSTRAINT "uq:external_identities.provider+external_identities.subject" UNIQUE (provider, subject);


--
-- Name: external_identities uq:external_identities.user_id+external_identities.provider; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.external_identities
    ADD CONSTRAINT "uq:external_identities.user_id+external_identities.provider" UNIQUE (user_id, provider);


--
-- Name: foods uq:foods.user_id+foods.barcode; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.foods
    ADD CONSTRAINT "uq:foods.user_id+foods.barcode" UNIQUE (user_id, barcode);


--
-- Name: goal_settings uq:goal_settings.user_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.goal_settings
    ADD CONSTRAINT "uq:goal_settings.user_id" UNIQUE (user_id);


--
-- Name: invitations uq:invitations.token_hash; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitations
    ADD CONSTRAINT "uq:invitations.token_hash" UNIQUE (token_hash);


--
-- Name: known_clients uq:known_clients.user_id+known_clients.key_hash; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.known_clients
    ADD CONSTRAINT "uq:known_clients.user_id+known_clients.key_hash" UNIQUE (user_id, key_hash);


--
-- Name: login_buckets uq:login_buckets.key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.login_buckets
    ADD CONSTRAINT "uq:login_buckets.key" UNIQUE (key);


--
-- Name: meal_types uq:meal_types.user_id+meal_types.name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meal_types
    ADD CONSTRAINT "uq:meal_types.user_id+meal_types.name_key" UNIQUE (user_id, name_key);


--
-- Name: openfoodfacts_cache uq:openfoodfacts_cache.barcode; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.openfoodfacts_cache
    ADD CONSTRAINT "uq:openfoodfacts_cache.barcode" UNIQUE (barcode);


--
-- Name: photo_blobs uq:photo_blobs.photo_id+photo_blobs.variant; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photo_blobs
    ADD CONSTRAINT "uq:photo_blobs.photo_id+photo_blobs.variant" UNIQUE (photo_id, variant);


--
-- Name: shopping_lists uq:shopping_lists.share_token; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shopping_lists
    ADD CONSTRAINT "uq:shopping_lists.share_token" UNIQUE (share_token);


--
-- Name: sync_mutations uq:sync_mutations.owner_id+sync_mutations.device_id+sync_mutati; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_mutations
    ADD CONSTRAINT "uq:sync_mutations.owner_id+sync_mutations.device_id+sync_mutati" UNIQUE (owner_id, device_id, mutation_id);


--
-- Name: sync_records uq:sync_records.owner_id+sync_records.kind+sync_records.record_; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_records
    ADD CONSTRAINT "uq:sync_records.owner_id+sync_records.kind+sync_records.record_" UNIQUE (owner_id, kind, record_id);


--
-- Name: users uq:users.email_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT "uq:users.email_key" UNIQUE (email_key);


--
-- Name: web_sessions uq:web_sessions.key_hash; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_sessions
    ADD CONSTRAINT "uq:web_sessions.key_hash" UNIQUE (key_hash);


--
-- Name: weight_entries uq:weight_entries.user_id+weight_entries.measured_at; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.weight_entries
    ADD CONSTRAINT "uq:weight_entries.user_id+weight_entries.measured_at" UNIQUE (user_id, measured_at);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: web_sessions web_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.web_sessions
    ADD CONSTRAINT web_sessions_pkey PRIMARY KEY (id);


--
-- Name: weight_entries weight_entries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.weight_entries
    ADD CONSTRAINT weight_entries_pkey PRIMARY KEY (id);


--
-- Name: api_tokens_expires; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX api_tokens_expires ON public.api_tokens USING btree (expires_at);


--
-- Name: assignments_meal_date; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignments_meal_date ON public.assignments USING btree (meal_id, date);


--
-- Name: assignments_owner_date; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignments_owner_date ON public.assignments USING btree (user_id, date);


--
-- Name: diary_entries_photo; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX diary_entries_photo ON public.diary_entries USING btree (photo_id);


--
-- Name: diary_owner_date; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX diary_owner_date ON public.diary_entries USING btree (user_id, local_date, logged_at);


--
-- Name: diary_owner_occasion; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX diary_owner_occasion ON public.diary_entries USING btree (user_id, occasion_id);


--
-- Name: food_terms_food_term; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX food_terms_food_term ON public.food_terms USING btree (food_id, term);


--
-- Name: food_terms_owner_term; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX food_terms_owner_term ON public.food_terms USING btree (user_id, term, food_id);


--
-- Name: foods_catalog; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX foods_catalog ON public.foods USING btree (user_id, catalog_id);


--
-- Name: foods_owner_search; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX foods_owner_search ON public.foods USING btree (user_id, search_key);


--
-- Name: meal_components_meal; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX meal_components_meal ON public.meal_components USING btree (meal_id, name_key);


--
-- Name: meal_components_owner_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX meal_components_owner_key ON public.meal_components USING btree (user_id, name_key);


--
-- Name: meal_ingredients_food; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX meal_ingredients_food ON public.meal_ingredients USING btree (food_id);


--
-- Name: meal_ingredients_meal; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX meal_ingredients_meal ON public.meal_ingredients USING btree (meal_id, "position");


--
-- Name: meals_owner_carb; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX meals_owner_carb ON public.meals USING btree (user_id, carb_key);


--
-- Name: meals_owner_description; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX meals_owner_description ON public.meals USING btree (user_id, description_key, id);


--
-- Name: meals_owner_protein; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX meals_owner_protein ON public.meals USING btree (user_id, protein_key);


--
-- Name: photos_owner; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX photos_owner ON public.photos USING btree (user_id);


--
-- Name: shopping_items_food; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX shopping_items_food ON public.shopping_items USING btree (user_id, food_id);


--
-- Name: shopping_items_list; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX shopping_items_list ON public.shopping_items USING btree (list_id);


--
-- Name: shopping_lists_owner; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX shopping_lists_owner ON public.shopping_lists USING btree (user_id);


--
-- Name: sync_records_feed; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sync_records_feed ON public.sync_records USING btree (owner_id, seq);


--
-- Name: sync_records_kind_seq; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sync_records_kind_seq ON public.sync_records USING btree (owner_id, kind, seq);


--
-- Name: web_sessions_expires; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX web_sessions_expires ON public.web_sessions USING btree (expires_at);


--
-- Name: weights_owner_time; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX weights_owner_time ON public.weight_entries USING btree (user_id, measured_at);


--
-- Name: api_tokens api_tokens_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT api_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: assignments assignments_meal_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignments
    ADD CONSTRAINT assignments_meal_id_fkey FOREIGN KEY (meal_id) REFERENCES public.meals(id) ON DELETE CASCADE;


--
-- Name: assignments assignments_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignments
    ADD CONSTRAINT assignments_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: body_profiles body_profiles_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.body_profiles
    ADD CONSTRAINT body_profiles_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: diary_entries diary_entries_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.diary_entries
    ADD CONSTRAINT diary_entries_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: external_identities external_identities_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.external_identities
    ADD CONSTRAINT external_identities_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: food_terms food_terms_food_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.food_terms
    ADD CONSTRAINT food_terms_food_id_fkey FOREIGN KEY (food_id) REFERENCES public.foods(id) ON DELETE CASCADE;


--
-- Name: food_terms food_terms_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.food_terms
    ADD CONSTRAINT food_terms_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: foods foods_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.foods
    ADD CONSTRAINT foods_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: goal_settings goal_settings_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.goal_settings
    ADD CONSTRAINT goal_settings_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: invitations invitations_created_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitations
    ADD CONSTRAINT invitations_created_by_fkey FOREIGN KEY (created_by) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: known_clients known_clients_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.known_clients
    ADD CONSTRAINT known_clients_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: meal_components meal_components_meal_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meal_components
    ADD CONSTRAINT meal_components_meal_id_fkey FOREIGN KEY (meal_id) REFERENCES public.meals(id) ON DELETE CASCADE;


--
-- Name: meal_components meal_components_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meal_components
    ADD CONSTRAINT meal_components_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: meal_ingredients meal_ingredients_food_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meal_ingredients
    ADD CONSTRAINT meal_ingredients_food_id_fkey FOREIGN KEY (food_id) REFERENCES public.foods(id) ON DELETE RESTRICT;


--
-- Name: meal_ingredients meal_ingredients_meal_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meal_ingredients
    ADD CONSTRAINT meal_ingredients_meal_id_fkey FOREIGN KEY (meal_id) REFERENCES public.meals(id) ON DELETE CASCADE;


--
-- Name: meal_ingredients meal_ingredients_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meal_ingredients
    ADD CONSTRAINT meal_ingredients_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: meal_types meal_types_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meal_types
    ADD CONSTRAINT meal_types_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: meals meals_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.meals
    ADD CONSTRAINT meals_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: photo_blobs photo_blobs_photo_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photo_blobs
    ADD CONSTRAINT photo_blobs_photo_id_fkey FOREIGN KEY (photo_id) REFERENCES public.photos(id) ON DELETE CASCADE;


--
-- Name: photos photos_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photos
    ADD CONSTRAINT photos_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: shopping_items shopping_items_list_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shopping_items
    ADD CONSTRAINT shopping_items_list_id_fkey FOREIGN KEY (list_id) REFERENCES public.shopping_lists(id) ON DELETE CASCADE;


--
-- Name: shopping_items shopping_items_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shopping_items
    ADD CONSTRAINT shopping_items_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: shopping_lists shopping_lists_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shopping_lists
    ADD CONSTRAINT shopping_lists_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: sync_heads sync_heads_owner_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_heads
    ADD CONSTRAINT sync_heads_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: sync_horizons sync_horizons_owner_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_horizons
    ADD CONSTRAINT sync_horizons_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: sync_mutations sync_mutations_owner_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_mutations
    ADD CONSTRAINT sync_mutations_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: sync_records sync_records_owner_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sync_records
    ADD CONSTRAINT sync_records_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: weight_entries weight_entries_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.weight_entries
    ADD CONSTRAINT weight_entries_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict fCJdMwoVt73VUEugmlz3aEzLDifuNWGd4RZ5UstniEb83LKDFavxRwmutVZs7MC

