// Drools DMN (org.kie:kie-dmn-core) for the engine-dmn bench case: a long-lived process reading one JSON request
// per line on stdin and writing one JSON answer per line on stdout. Run as a single-file source program:
//   java -cp 'LIB/*' bench/drools/DmnBench.java
// Requests:
//   {"op":"load","id":"m","files":["a.dmn",...],"namespace":"...","name":"..."}  -> {"ok":true}
//   {"op":"answers","id":"m","inputs":[{...},...]}       -> {"answers":[{decision:value,...},...]}
//   {"op":"time","items":[{"id":"m","input":{...}},...],"warmupMs":W,"runs":R,"runMs":T,"cpuMs":C}
//       -> {"rates":[evals/s per run],"cpuUsPerEval":x}  (items in turn, as the Node side times Verdict)
//   {"op":"quit"}
// Inputs are built into Java values (BigDecimal numbers, lists, maps) before timing; each evaluation gets a new
// DMNContext, since evaluateAll writes the decisions' results into the context it is given.
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.kie.api.io.Resource;
import org.kie.dmn.api.core.DMNContext;
import org.kie.dmn.api.core.DMNDecisionResult;
import org.kie.dmn.api.core.DMNModel;
import org.kie.dmn.api.core.DMNResult;
import org.kie.dmn.api.core.DMNRuntime;
import org.kie.dmn.core.internal.utils.DMNRuntimeBuilder;
import org.kie.internal.io.ResourceFactory;

public class DmnBench {
  static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  record Loaded(DMNRuntime runtime, DMNModel model) {}
  static final Map<String, Loaded> MODELS = new HashMap<>();
  /** Results are folded in here so that no evaluation is dead code. */
  static volatile int sink;

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
    // Drools may print to System.out; keep stdout for answers only.
    System.setOut(System.err);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    out.println("{\"ready\":true}");
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isBlank()) continue;
      JsonNode answer;
      try {
        JsonNode request = JSON.readTree(line);
        if ("quit".equals(request.path("op").asText())) break;
        answer = handle(request);
      } catch (Throwable error) {
        ObjectNode failed = NODES.objectNode();
        failed.put("error", String.valueOf(error));
        answer = failed;
      }
      out.println(JSON.writeValueAsString(answer));
    }
  }

  static JsonNode handle(JsonNode request) throws Exception {
    switch (request.path("op").asText()) {
      case "load": return load(request);
      case "answers": return answers(request);
      case "time": return time(request);
      default: throw new IllegalArgumentException("unknown op " + request.path("op"));
    }
  }

  static JsonNode load(JsonNode request) {
    List<Resource> resources = new ArrayList<>();
    for (JsonNode file : request.path("files")) resources.add(ResourceFactory.newFileResource(new File(file.asText())));
    DMNRuntime runtime = DMNRuntimeBuilder.fromDefaults().buildConfiguration().fromResources(resources)
        .getOrElseThrow(error -> new IllegalStateException("Drools did not build the models: " + error, error));
    DMNModel model = runtime.getModel(request.path("namespace").asText(), request.path("name").asText());
    if (model == null) throw new IllegalArgumentException("no model " + request.path("name").asText() + " in " + request.path("files"));
    if (model.hasErrors()) throw new IllegalStateException("model errors: " + model.getMessages());
    MODELS.put(request.path("id").asText(), new Loaded(runtime, model));
    ObjectNode ok = NODES.objectNode();
    ok.put("ok", true);
    return ok;
  }

  static Loaded model(String id) {
    Loaded loaded = MODELS.get(id);
    if (loaded == null) throw new IllegalArgumentException("model " + id + " is not loaded");
    return loaded;
  }

  static DMNResult evaluate(Loaded loaded, Map<String, Object> input) {
    DMNContext context = loaded.runtime().newContext();
    for (Map.Entry<String, Object> entry : input.entrySet()) context.set(entry.getKey(), entry.getValue());
    return loaded.runtime().evaluateAll(loaded.model(), context);
  }

  static JsonNode answers(JsonNode request) {
    Loaded loaded = model(request.path("id").asText());
    ArrayNode all = NODES.arrayNode();
    for (JsonNode input : request.path("inputs")) {
      DMNResult result = evaluate(loaded, toMap(input));
      ObjectNode decisions = NODES.objectNode();
      for (DMNDecisionResult decision : result.getDecisionResults()) decisions.set(decision.getDecisionName(), toJson(decision.getResult()));
      all.add(decisions);
    }
    ObjectNode answer = NODES.objectNode();
    answer.set("answers", all);
    return answer;
  }

  static JsonNode time(JsonNode request) {
    List<Loaded> models = new ArrayList<>();
    List<Map<String, Object>> inputs = new ArrayList<>();
    for (JsonNode item : request.path("items")) {
      models.add(model(item.path("id").asText()));
      inputs.add(toMap(item.path("input")));
    }
    int n = inputs.size();
    long[] next = {0};
    Runnable one = () -> {
      int i = (int) (next[0]++ % n);
      sink += evaluate(models.get(i), inputs.get(i)).getDecisionResults().size();
    };
    loopFor(one, request.path("warmupMs").asLong());
    ArrayNode rates = NODES.arrayNode();
    for (int r = 0; r < request.path("runs").asInt(); r++) {
      long start = System.nanoTime();
      long evals = loopFor(one, request.path("runMs").asLong());
      rates.add(evals * 1e9 / (System.nanoTime() - start));
    }
    // CPU of the whole process (JIT and GC threads included), as the Node side measures Verdict's.
    com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpuMs = request.path("cpuMs").asLong();
    loopFor(one, cpuMs / 2);
    long cpuBefore = os.getProcessCpuTime();
    long evals = loopFor(one, cpuMs);
    long cpu = os.getProcessCpuTime() - cpuBefore;
    ObjectNode answer = NODES.objectNode();
    answer.set("rates", rates);
    answer.put("cpuUsPerEval", cpu / 1000.0 / Math.max(1, evals));
    return answer;
  }

  /** Evaluations done in `ms` of wall time, reading the clock every 16 evaluations. */
  static long loopFor(Runnable one, long ms) {
    long until = System.nanoTime() + ms * 1_000_000L;
    long evals = 0;
    do {
      for (int k = 0; k < 16; k++) one.run();
      evals += 16;
    } while (System.nanoTime() < until);
    return evals;
  }

  static Map<String, Object> toMap(JsonNode object) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      map.put(entry.getKey(), toJava(entry.getValue()));
    }
    return map;
  }

  static Object toJava(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) return null;
    if (node.isNumber()) return node.decimalValue();
    if (node.isBoolean()) return node.booleanValue();
    if (node.isTextual()) return node.textValue();
    if (node.isArray()) {
      List<Object> list = new ArrayList<>();
      for (JsonNode item : node) list.add(toJava(item));
      return list;
    }
    return toMap(node);
  }

  static JsonNode toJson(Object value) {
    if (value == null) return NODES.nullNode();
    if (value instanceof Boolean b) return NODES.booleanNode(b);
    if (value instanceof BigDecimal d) return NODES.numberNode(d);
    if (value instanceof Number number) return NODES.numberNode(new BigDecimal(number.toString()));
    if (value instanceof String s) return NODES.textNode(s);
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = NODES.objectNode();
      for (Map.Entry<?, ?> entry : map.entrySet()) object.set(String.valueOf(entry.getKey()), toJson(entry.getValue()));
      return object;
    }
    if (value instanceof Collection<?> items) {
      ArrayNode array = NODES.arrayNode();
      for (Object item : items) array.add(toJson(item));
      return array;
    }
    return NODES.textNode(value.toString());
  }
}
